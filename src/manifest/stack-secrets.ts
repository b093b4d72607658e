/**
 * How a stack settings file keeps its secrets, read from the keys Pulumi writes beside `config:`.
 * `encryptionsalt` (Pulumi's passphrase provider) is read and its values opened with
 * PULUMI_CONFIG_PASSPHRASE; plumb's own sealed values open with the state location's key. Every
 * other secrets provider, an `encryptedkey` and an ESC `environment:` are refused where they are
 * written, saying what to do instead: none is passed over in silence.
 */
import { isScalar, isSeq, type Node } from 'yaml';
import { Secret } from '../kernel/values.js';
import { decryptWith, isEncryptionSalt, isPassphraseCiphertext, passphraseKey, pulumiPassphrase } from './pulumi-secrets.js';
import type { Pos } from './ast.js';
import type { OpenSecret } from './stack-config.js';

/** Stands for a secure value that could not be opened (the reason is reported once). */
export const NOT_OPENED = Symbol('not opened');

type ErrorAt = (node: unknown, summary: string, detail?: string) => void;

const TO_PASSPHRASE =
  "plumb reads secrets kept by Pulumi's passphrase provider: switch the stack with `pulumi stack change-secrets-provider passphrase`, or set each secret again with `plumb config set KEY --secret`";
const SET_PASSPHRASE = 'set PULUMI_CONFIG_PASSPHRASE to the passphrase the stack was made with, or PULUMI_CONFIG_PASSPHRASE_FILE to a file holding it';

/** The secrets of one stack settings file. */
export class StackSecrets {
  /** The file's `encryptionsalt`, when it has a valid one. */
  salt?: string;
  private saltNode?: Node;
  /** A secrets provider plumb cannot use was found (and reported): its values are not opened. */
  private refused = false;
  /** Why the passphrase key is missing, once reported. */
  private keyProblem?: 'reported';
  private key?: Buffer;

  constructor(
    private readonly file: string,
    private readonly openSealed: OpenSecret,
    private readonly env: Record<string, string | undefined>,
    private readonly error: ErrorAt,
    /** Stands for every secure value, none being opened (for a listing that does not show them). */
    private readonly unopened?: { value: unknown },
  ) {}

  /** Reads one of the keys Pulumi writes beside `config:`; false for a key that is none of them. */
  readKey(key: string, value: Node | null, keyNode: Node): boolean {
    const text = isScalar(value) && typeof value.value === 'string' ? value.value : undefined;
    switch (key) {
      case 'encryptionsalt':
        if (text !== undefined && isEncryptionSalt(text)) [this.salt, this.saltNode] = [text, value as Node];
        else
          this.error(
            value ?? keyNode,
            "encryptionsalt is not one Pulumi's passphrase provider writes (v1:<salt>:v1:<nonce>:<check>)",
            'restore it from where the file came from: without it the secrets cannot be opened',
          );
        return true;
      case 'secretsprovider':
        if (text === 'passphrase') return true;
        this.refused = true;
        this.error(value ?? keyNode, `secrets provider ${text === undefined ? '' : `"${text}" `}is not supported`, TO_PASSPHRASE);
        return true;
      case 'encryptedkey':
        this.refused = true;
        this.error(keyNode, 'encryptedkey (a data key kept by a cloud KMS or Pulumi Cloud) is not supported', TO_PASSPHRASE);
        return true;
      case 'environment':
        if (value === null || (isScalar(value) && value.value === null) || (isSeq(value) && !value.items.length)) return true;
        this.error(
          keyNode,
          'environment: (Pulumi ESC environments) is not supported',
          'write the values under config:, or run plumb under `esc run <env> --` with them as PLUMB_CONFIG_<key> variables',
        );
        return true;
      default:
        return false;
    }
  }

  /** A `secure:` value opened as a Secret; NOT_OPENED when it cannot be (reported). */
  open(sealed: string, node: Node, pos: Pos): unknown {
    if (this.unopened) return this.unopened.value;
    if (!isPassphraseCiphertext(sealed)) return this.openSealed(sealed, `${this.file}:${pos.line}:${pos.column}`);
    if (this.refused) return NOT_OPENED;
    if (!this.salt) {
      if (!this.keyProblem)
        this.error(node, 'this secure value was encrypted by Pulumi, and the file has no encryptionsalt: its secrets provider (Pulumi Cloud, by default) is not supported', TO_PASSPHRASE);
      this.keyProblem = 'reported';
      return NOT_OPENED;
    }
    const key = this.passphraseKey();
    if (!key) return NOT_OPENED;
    const plain = decryptWith(key, sealed);
    if (plain !== undefined) return new Secret(plain);
    this.error(node, "this secure value does not open with the stack's passphrase: it is damaged, or was encrypted for another stack", 'set it again: plumb config set KEY --secret');
    return NOT_OPENED;
  }

  /** The key of the file's salt, from the passphrase in the environment; undefined (reported once) when there is none that opens it. */
  passphraseKey(): Buffer | undefined {
    if (this.key || this.keyProblem || !this.salt) return this.key;
    this.keyProblem = 'reported';
    let given: ReturnType<typeof pulumiPassphrase>;
    try {
      given = pulumiPassphrase(this.env);
    } catch (err) {
      this.error(this.saltNode, (err as Error).message, SET_PASSPHRASE);
      return undefined;
    }
    if (!given) {
      this.error(this.saltNode, "this stack's secrets are encrypted with a passphrase (encryptionsalt), and none is set", SET_PASSPHRASE);
      return undefined;
    }
    this.key = passphraseKey(this.salt, given.phrase);
    if (this.key) this.keyProblem = undefined;
    else this.error(this.saltNode, `the passphrase in ${given.from} does not open this stack's secrets (encryptionsalt)`, SET_PASSPHRASE);
    return this.key;
  }
}

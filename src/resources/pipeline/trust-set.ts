/**
 * The TLS certificates or SSH host-key fingerprints a connection or destination trusts: one
 * resource type per holder and kind (ConnectionCertificates, ConnectionFingerprints,
 * DestinationCertificates, DestinationFingerprints), all made here.
 *
 * The manifest declares the whole set, by hash: a create approves each declared item the API
 * does not list yet; an update revokes what is approved but no longer declared and approves what
 * is new or changed; a delete revokes what was declared. Items approved elsewhere (a failed setup
 * test trusted in the web UI) read as a change, so the plan shows their revocation. The API never
 * shows a certificate again: it is kept as declared (and sealed, as the vendor's provider does); a
 * fingerprint's public key is read back. The id, and import id, is the holder's.
 */
import * as z from 'zod';
import type { PipelineClient } from '../../providers/pipeline/client.js';
import type { PipelineSettings } from '../../providers/pipeline/settings.js';
import type { ResourceType } from '../../engine/contracts/resource-type.js';
import { reveal } from '../../kernel/values.js';
import { apiIdFormat, deleteIfPresent, unlessGone, type Ctx } from './kit.js';

type Holder = 'connection' | 'destination';
type Kind = 'certificates' | 'fingerprints';

/** One declared item: its hash and the certificate or public key it stands for. */
type Item = Record<string, string>;

/** An approved item as the API lists it. */
interface WireItem {
  hash: string;
  name?: string;
  type?: string;
  sha1?: string;
  sha256?: string;
  public_key?: string;
  validated_by?: string;
  validated_date?: string;
}

/** How one holder and kind differ. */
interface Shape {
  holder: Holder;
  kind: Kind;
  /** The input naming the holder (`connectionId`). */
  idField: string;
  /** The item's second field in the manifest and on the wire. */
  value: 'encodedCert' | 'publicKey';
  wireValue: 'encoded_cert' | 'public_key';
}

const detailSchema = z.object({
  hash: z.string().describe('Hash of the item.'),
  name: z.string().optional().describe("The certificate's subject (certificates only)."),
  type: z.string().optional().describe('Certificate type, e.g. `TLS` (certificates only).'),
  sha1: z.string().optional().describe('SHA-1 digest (certificates only).'),
  sha256: z.string().optional().describe('SHA-256 digest (certificates only).'),
  publicKey: z.string().optional().describe('Its public key.'),
  validatedBy: z.string().optional().describe('Id of the user who approved it.'),
  validatedDate: z.string().optional().describe('When it was approved (RFC 3339).'),
});

function schemas(shape: Shape) {
  const itemValue =
    shape.value === 'encodedCert'
      ? z.string().min(1).describe('The certificate, base64-encoded (DER or PEM). The API never shows it again: sealed, and kept as declared.')
      : z.string().min(1).describe('The SSH public key the fingerprint is of, e.g. `ssh-ed25519 AAAA...`.');
  const item = z
    .object({
      hash: z
        .string()
        .min(1)
        .describe(`Hash of the ${shape.kind === 'certificates' ? 'certificate' : 'host key'}, as the failed setup test reports it.`),
      [shape.value]: itemValue,
    })
    .strict();
  const inputs = z.object({
    [shape.idField]: z.string().min(1).describe(`Id of the ${shape.holder} that trusts them. Required.`),
    [shape.kind]: z
      .array(item)
      .describe(
        `Every ${shape.kind === 'certificates' ? 'certificate' : 'fingerprint'} the ${shape.holder} trusts, by hash (a set: order does not matter). One approved elsewhere is a change: it is revoked.`,
      ),
  });
  const outputs = inputs.extend({ id: z.string().describe(`The ${shape.holder}'s id.`), approved: z.array(detailSchema).describe('What the API reports of each approved item.') });
  return { inputs, outputs };
}

const basePath = (shape: Shape, id: string) => `/${shape.holder}s/${encodeURIComponent(id)}/${shape.kind}`;

function detail(item: WireItem): z.output<typeof detailSchema> {
  return { hash: item.hash, name: item.name, type: item.type, sha1: item.sha1, sha256: item.sha256, publicKey: item.public_key, validatedBy: item.validated_by, validatedDate: item.validated_date };
}

/** The outputs for what the API lists; a certificate's text is the declared one of its hash (none for one never declared). */
function toOutputs(shape: Shape, id: string, listed: WireItem[], declared: Item[] | undefined): Record<string, unknown> {
  const known = new Map((declared ?? []).map((item) => [item.hash, item[shape.value]]));
  const items = listed.map((item) => {
    const value = shape.value === 'publicKey' ? item.public_key : known.get(item.hash);
    return value === undefined ? { hash: item.hash } : { hash: item.hash, [shape.value]: value };
  });
  return { id, [shape.idField]: id, [shape.kind]: items, approved: listed.map(detail) };
}

async function listed(ctx: Ctx, shape: Shape, id: string): Promise<WireItem[] | undefined> {
  return unlessGone(ctx.client.list<WireItem>(basePath(shape, id)));
}

/** Approves each of `items` (a repeat approves again, so a lost answer is safe to resend). */
async function approve(ctx: Ctx, shape: Shape, id: string, items: Item[]): Promise<void> {
  for (const item of items) await ctx.client.write('POST', basePath(shape, id), { hash: item.hash, [shape.wireValue]: reveal(item[shape.value]) }, { safe: true });
}

async function revoke(ctx: Ctx, shape: Shape, id: string, hashes: string[]): Promise<void> {
  for (const hash of hashes) await deleteIfPresent(ctx, `${basePath(shape, id)}/${encodeURIComponent(hash)}`);
}

/** Reads the set after a change; the holder gone meanwhile is an error naming it. */
async function observed(ctx: Ctx, shape: Shape, id: string, declared: Item[]): Promise<Record<string, unknown>> {
  const now = await listed(ctx, shape, id);
  if (!now) throw new Error(`${shape.holder} ${id} does not exist`);
  return toOutputs(shape, id, now, declared);
}

/** A set's recorded items in the declared order, a certificate never shown taking the declared text of its hash. */
function inDeclaredOrder(shape: Shape, recorded: Item[], desired: Item[]): Item[] {
  const wanted = new Map(desired.map((item, i) => [item.hash, { item, i }]));
  const items = recorded.map((item) => (item[shape.value] === undefined && wanted.has(item.hash) ? { ...item, [shape.value]: wanted.get(item.hash)!.item[shape.value] } : item));
  return items.sort((a, b) => (wanted.get(a.hash)?.i ?? Infinity) - (wanted.get(b.hash)?.i ?? Infinity));
}

/** Revokes what is approved but not wanted, then approves what is wanted and not approved, or changed since `prior`. */
async function converge(ctx: Ctx, shape: Shape, id: string, prior: Item[], wanted: Item[]): Promise<void> {
  const now = (await listed(ctx, shape, id)) ?? [];
  const before = new Map(prior.map((item) => [item.hash, reveal(item[shape.value])]));
  const keep = new Set(wanted.map((item) => item.hash));
  await revoke(
    ctx,
    shape,
    id,
    now.map((item) => item.hash).filter((hash) => !keep.has(hash)),
  );
  const approved = new Set(now.map((item) => item.hash));
  await approve(
    ctx,
    shape,
    id,
    wanted.filter((item) => !approved.has(item.hash) || before.get(item.hash) !== reveal(item[shape.value])),
  );
}

/** Makes one of the four types. */
export function trustSetType(shape: Shape, token: string, example: string): ResourceType<Record<string, unknown>, Record<string, unknown>, PipelineClient, PipelineSettings> {
  const { inputs, outputs } = schemas(shape);
  const itemsOf = (values: Record<string, unknown> | undefined) => (values?.[shape.kind] ?? []) as Item[];
  const what = shape.kind === 'certificates' ? 'TLS certificates' : 'SSH host-key fingerprints';
  return {
    token,
    provider: 'pipeline',
    description: `The ${what} a ${shape.holder} trusts, as a set by hash: approved and revoked to match. Import id: <${shape.holder}_id> (e.g. ${example}).`,
    inputs,
    outputs,
    secrets: {
      paths: shape.value === 'encodedCert' ? [`${shape.kind}[*].encodedCert`] : [],
    },
    diff: {
      remoteManaged: ['approved'],
      asDeclared: (recorded, _outputs, desired) => ({ ...recorded, [shape.kind]: inDeclaredOrder(shape, itemsOf(recorded), itemsOf(desired)) }),
    },
    replace: {
      on: [{ path: shape.idField, reason: `the ${what} belong to one ${shape.holder}` }],
    },
    cost: { unpriced: 'not billed on its own' },
    importId: apiIdFormat(shape.holder, example),

    async create(ctx, values) {
      const id = String(values[shape.idField]);
      ctx.recordId(id);
      const now = await listed(ctx, shape, id);
      if (!now) throw new Error(`${shape.holder} ${id} does not exist`);
      const have = new Set(now.map((item) => item.hash));
      await approve(
        ctx,
        shape,
        id,
        itemsOf(values).filter((item) => !have.has(item.hash)),
      );
      return { id, outputs: await observed(ctx, shape, id, itemsOf(values)) };
    },

    async read(ctx, id, prior) {
      const now = await listed(ctx, shape, id);
      return now && toOutputs(shape, id, now, prior && itemsOf(prior.inputs));
    },

    async update(ctx, id, prior, desired) {
      await converge(ctx, shape, id, itemsOf(prior.inputs), itemsOf(desired));
      return observed(ctx, shape, id, itemsOf(desired));
    },

    async delete(ctx, id, prior) {
      await revoke(
        ctx,
        shape,
        id,
        itemsOf(prior.inputs).map((item) => item.hash),
      );
    },
  };
}

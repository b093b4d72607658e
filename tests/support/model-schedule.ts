/**
 * Schedules of the model: from a seed, a sequence of manifest versions, each made from the last one
 * the engine did not refuse by a few edits a user makes — adds, removals (what used the removed
 * resource moves to another or goes too), renames with and without an alias, changes of a field
 * that forces a replacement, changes made in place, references moved, `deleteBeforeReplace` set or
 * cleared — and whether the stack is destroyed at the end. Every version is a valid manifest;
 * whether the engine can get from one to the next is for it to say.
 */
import type { Kind, Prng } from './model-world.js';
import { prng, RULES } from './model-world.js';

/** One resource of a version: its address now, and the identity it keeps through renames with an alias. */
export interface Decl {
  identity: string;
  address: string;
  kind: Kind;
  props: Record<string, string | number>;
  /** The identity of the resource its `ref` names. */
  ref?: string;
  aliases?: string[];
  deleteBeforeReplace?: boolean;
}

/** A manifest version and the edits that made it. */
export interface Version {
  decls: Decl[];
  edits: string[];
}

const KINDS: Kind[] = ['port', 'vxc', 'gateway', 'link', 'route'];
const LABELS = ['a', 'b', 'c', 'd'];
const VLANS = [100, 200, 300];
const NAMES = ['east', 'west', 'north', 'south'];

/** The schedule a seed gives: its versions, made one at a time from the version the run is at. */
export class Schedule {
  readonly versions: Version[] = [];
  /** How many versions it has. */
  readonly length: number;
  readonly destroy: boolean;
  private readonly random: Prng;
  private readonly editor: Editor;

  constructor(readonly seed: number) {
    this.random = prng(seed);
    this.editor = new Editor(this.random);
    this.length = this.random.int(4, 7);
    this.destroy = this.random.chance(0.4);
  }

  /** The next version: a few edits of `base` (the first one: a few resources added to none). */
  next(base: Version): Version {
    const decls = structuredClone(base.decls);
    const first = !this.versions.length;
    const edits: string[] = [];
    for (let e = first ? this.random.int(3, 8) : this.random.int(1, 4); e > 0; e--) edits.push(first ? this.editor.add(decls) : this.editor.any(decls));
    const version = { decls, edits };
    this.versions.push(version);
    return version;
  }

  /**
   * Back to `base` from a version the engine refused, which may have been applied in part: a resource
   * renamed there (its record moved) is renamed back with an alias, as a user going back would.
   */
  back(base: Version, refused: Version): Version {
    const decls = structuredClone(base.decls);
    const renamed: string[] = [];
    for (const d of decls) {
      const there = refused.decls.find((r) => r.identity === d.identity && r.address !== d.address);
      if (!there || d.aliases?.includes(there.address)) continue;
      d.aliases = [...(d.aliases ?? []), there.address];
      renamed.push(`${there.address} back to ${d.address}`);
    }
    const version = { decls, edits: [`back to the last version applied${renamed.length ? `, renaming ${renamed.join(', ')} with an alias` : ''}`] };
    this.versions.push(version);
    return version;
  }

  /** `base` without any `deleteBeforeReplace: false`, as the engine's refusal of a pinned create-first replacement advises. */
  unpinned(base: Version): Version {
    const decls = structuredClone(base.decls);
    const unpinned = decls.filter((d) => d.deleteBeforeReplace === false);
    for (const d of unpinned) delete d.deleteBeforeReplace;
    const version = { decls, edits: [`remove deleteBeforeReplace: false from ${unpinned.map((d) => d.address).join(', ')}, as the refusal says`] };
    this.versions.push(version);
    return version;
  }

  /** The versions in words, each with its edits and manifest, for a failing seed. */
  describe(): string {
    const parts = [`seed ${this.seed}${this.destroy ? ', destroyed at the end' : ''}`];
    this.versions.forEach((v, i) => parts.push(`--- version ${i}: ${v.edits.join('; ')}`, manifestOf(v).trimEnd()));
    return parts.join('\n');
  }
}

/** The manifest of a version. */
export function manifestOf(version: Version): string {
  const lines = ['name: model', 'resources:'];
  const byIdentity = new Map(version.decls.map((d) => [d.identity, d]));
  for (const d of version.decls) {
    lines.push(`  ${d.address}:`, `    type: model:${d.kind[0].toUpperCase()}${d.kind.slice(1)}`, '    properties:');
    if (d.ref) lines.push(`      ref: "\${${byIdentity.get(d.ref)!.address}.id}"`);
    for (const [key, value] of Object.entries(d.props)) lines.push(`      ${key}: ${typeof value === 'string' ? JSON.stringify(value) : value}`);
    const options = [
      ...(d.aliases?.length ? [`      aliases: [${d.aliases.join(', ')}]`] : []),
      ...(d.deleteBeforeReplace !== undefined ? [`      deleteBeforeReplace: ${d.deleteBeforeReplace}`] : []),
    ];
    if (options.length) lines.push('    options:', ...options);
  }
  return `${lines.join('\n')}\n`;
}

/** Address → identity, for the resources of a version. */
export function identitiesOf(version: Version): Record<string, string> {
  return Object.fromEntries(version.decls.map((d) => [d.address, d.identity]));
}

/** The edits, each on a version's resources in place, saying what it did. */
class Editor {
  private next = 1;
  constructor(private readonly random: Prng) {}

  /** One edit, chosen at random among those that apply. */
  any(decls: Decl[]): string {
    for (;;) {
      const edit = this.random.pick([this.add, this.remove, this.rename, this.rename, this.replace, this.replace, this.relabel, this.repoint, this.option]);
      const done = decls.length || edit === this.add ? edit.call(this, decls) : undefined;
      if (done) return done;
    }
  }

  add(decls: Decl[]): string {
    const kinds = KINDS.filter((k) => !RULES[k].refers || decls.some((d) => d.kind === RULES[k].refers));
    const kind = this.random.pick(kinds);
    const n = this.next++;
    const decl: Decl = { identity: `r${n}`, address: `${kind}${n}`, kind, props: {} };
    if (RULES[kind].refers) decl.ref = this.random.pick(decls.filter((d) => d.kind === RULES[kind].refers)).identity;
    decl.props = this.props(decls, decl);
    decls.push(decl);
    return `add ${decl.address}${decl.ref ? ` on ${addressOf(decls, decl.ref)}` : ''}`;
  }

  /** Removes a resource; each one using it moves to another of its kind, or goes too. */
  remove(decls: Decl[]): string {
    const gone = this.random.pick(decls);
    const said = [`remove ${gone.address}`];
    const going = new Set([gone.identity]);
    for (let grew = true; grew;) {
      grew = false;
      for (const d of decls.filter((x) => x.ref && going.has(x.ref) && !going.has(x.identity))) {
        const to = decls.filter((t) => t.kind === RULES[d.kind].refers && !going.has(t.identity));
        if (to.length && this.random.chance(0.6)) {
          this.moveTo(decls, d, this.random.pick(to));
          said.push(`${d.address} moves to ${addressOf(decls, d.ref!)}`);
        } else {
          going.add(d.identity);
          said.push(`${d.address} goes with it`);
          grew = true;
        }
      }
    }
    decls.splice(0, decls.length, ...decls.filter((d) => !going.has(d.identity)));
    return said.join(', ');
  }

  /** Renames a resource: with an alias it stays one object; without, it is another resource as far as the manifest says. */
  rename(decls: Decl[]): string {
    const d = this.random.pick(decls);
    const old = d.address;
    d.address = `${d.kind}${this.next++}`;
    if (this.random.chance(0.6)) {
      // Every earlier address stays an alias: the record may not have moved off any of them yet.
      d.aliases = [...(d.aliases ?? []), old];
      return `rename ${old} to ${d.address} with an alias`;
    }
    const identity = `r${this.next++}`;
    for (const user of decls) if (user.ref === d.identity) user.ref = identity;
    d.identity = identity;
    delete d.aliases;
    return `rename ${old} to ${d.address} without an alias`;
  }

  /** Changes a field that forces a replacement. */
  replace(decls: Decl[]): string | undefined {
    const d = this.random.pick(decls);
    const fields: Record<Kind, string[]> = { port: ['speed'], vxc: ['vlan', 'rate'], gateway: ['zone', 'name'], link: ['size'], route: ['size'] };
    const field = this.random.pick(fields[d.kind]);
    const value = this.fresh(decls, d, field);
    if (value === undefined) return undefined;
    d.props[field] = value;
    return `replace ${d.address}: ${field} = ${value}`;
  }

  relabel(decls: Decl[]): string {
    const d = this.random.pick(decls);
    d.props.label = this.random.pick(LABELS.filter((l) => l !== d.props.label));
    return `update ${d.address}: label = ${d.props.label}`;
  }

  /** Moves a resource's reference to another resource of the kind it uses. */
  repoint(decls: Decl[]): string | undefined {
    const d = this.random.pick(decls.filter((x) => x.ref));
    const to = d && decls.filter((t) => t.kind === RULES[d.kind].refers && t.identity !== d.ref);
    if (!to?.length) return undefined;
    this.moveTo(decls, d, this.random.pick(to));
    return `${d.address} moves to ${addressOf(decls, d.ref!)}`;
  }

  /**
   * Sets or clears options.deleteBeforeReplace: never true on a port (what uses it moves by update,
   * and a port in use cannot be deleted), never false on a type whose objects hold a claim (a
   * tainted one, replaced keeping its claim, could never be replaced: the engine refuses it).
   */
  option(decls: Decl[]): string {
    const d = this.random.pick(decls);
    const choices: Record<Kind, Array<boolean | undefined>> = {
      port: [false, undefined],
      vxc: [true, undefined],
      gateway: [true, undefined],
      link: [true, false, undefined],
      route: [true, false, undefined],
    };
    const value = this.random.pick(choices[d.kind]);
    if (value === undefined) delete d.deleteBeforeReplace;
    else d.deleteBeforeReplace = value;
    return `${d.address}: deleteBeforeReplace ${value ?? 'unset'}`;
  }

  private moveTo(decls: Decl[], d: Decl, target: Decl): void {
    d.ref = target.identity;
    const taken = decls.some((x) => x !== d && x.kind === 'vxc' && x.ref === d.ref && x.props.vlan === d.props.vlan);
    if (d.kind === 'vxc' && taken) d.props.vlan = this.fresh(decls, d, 'vlan') ?? 1000 + this.next++;
  }

  private props(decls: Decl[], d: Decl): Record<string, string | number> {
    const label = this.random.pick(LABELS);
    switch (d.kind) {
      case 'port':
        return { speed: this.random.pick([1, 10, 100]), label };
      case 'vxc':
        return { vlan: this.fresh(decls, d, 'vlan') ?? 1000 + this.next++, rate: this.random.pick([50, 100]), label };
      case 'gateway':
        return { name: this.fresh(decls, d, 'name') ?? `gw${this.next++}`, zone: this.random.pick(['z1', 'z2']), label };
      default:
        return { size: this.random.pick([1, 2, 3]), label };
    }
  }

  /** Another value for a field; a VLAN free on its port, a name no other gateway has; undefined when there is none. */
  private fresh(decls: Decl[], d: Decl, field: string): string | number | undefined {
    const others = decls.filter((x) => x !== d && x.kind === d.kind && (field !== 'vlan' || x.ref === d.ref)).map((x) => x.props[field]);
    const choices: Record<string, Array<string | number>> = { speed: [1, 10, 100], vlan: VLANS, rate: [50, 100], zone: ['z1', 'z2'], name: NAMES, size: [1, 2, 3] };
    const unique = field === 'vlan' || field === 'name';
    const free = choices[field].filter((v) => v !== d.props[field] && (!unique || !others.includes(v)));
    return free.length ? this.random.pick(free) : undefined;
  }
}

function addressOf(decls: Decl[], identity: string): string {
  return decls.find((d) => d.identity === identity)?.address ?? identity;
}

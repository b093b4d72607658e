import type { Logger } from 'pino';
import type { z } from 'zod';

/** What a handler gets for each call: its provider's client and settings, and where to report. */
export interface ResourceContext<C = any, S = any> {
  client: C;
  settings: S;
  log: Logger;
  /** Resource address in the stack, e.g. `port`. */
  address: string;
  /** Project (the manifest's name) and stack, used for ownership tags. */
  project: string;
  stack: string;
  /** A token unique to this operation, recorded in the journal before the call (idempotency). */
  operationToken: string;
  /** How long create/update may wait for provisioning, in milliseconds. */
  waitTimeMs: number;
  /** Reports a provisioning status for live progress (e.g. `DEPLOYABLE`). */
  progress(status: string): void;
  /** Adds a warning to the run's report. */
  warn(message: string): void;
  /**
   * Records the remote id as soon as the order is accepted, before waiting for provisioning,
   * so a timeout or crash leaves the product recorded (tainted), never forgotten.
   */
  recordId(id: string): void;
  /**
   * Whether state records an object of this type with this id, at any address, or an order of this
   * run has recorded it: such an object is not what this operation made. Absent: none is known.
   */
  isRecorded?(id: string): boolean;
  /**
   * A value shared by every read of one pass (a refresh, a drift check, settling): `make` runs once
   * per key and provider account, and every caller gets its promise, a failure included (so a list
   * that failed is not asked for again by each reader). Several types served by one list call it
   * under the same key. Outside a pass (an apply step, an import) it is shared by this context alone.
   */
  shared<T>(key: string, make: () => Promise<T>): Promise<T>;
  /**
   * The one way a handler waits for a remote object: calls `look` at once, then more and more
   * rarely (see Pace), reporting each new status as progress, until it says done; throws
   * WaitTimedOut once `limitMs` (default: the operation's wait time) has passed.
   */
  wait<T>(what: string, look: () => Promise<Look<T>>, pace?: Pace & { limitMs?: number }): Promise<T>;
}

/** One look at what a wait awaits: done with its value, or still in some status. */
export type Look<T> = { done: true; value: T } | { done: false; status: string };

/** How often a wait looks: at once, then after an eighth of the time waited so far, `firstMs` (default 200 ms) to `maxMs` (default 10 s) apart. */
export interface Pace {
  firstMs?: number;
  maxMs?: number;
}

/** One object a bulk read is asked for: its id, what state holds of it when recorded, and where its warnings go. */
export interface ReadTarget<In = any, Out = any> {
  id: string;
  prior?: { inputs: In; outputs: Out };
  /** Adds a warning about this object (a rotated partner port) to the run's report. */
  warn(message: string): void;
}

/**
 * A field path whose change forces replacement, and why: a type's static rule, what its
 * `replace.when` decides for one change, and what the plan records as having forced it.
 */
export interface ReplaceRule {
  /** Top-level input name or dotted path (`aEnd.requestedProductUid`). */
  path: string;
  /** Why the remote API cannot change it in place. */
  reason: string;
}

/**
 * Something an object holds exclusively, named by the values at `paths` of its inputs (one path
 * may end in `[]`: each item of that list is held on its own). Objects of any type holding claims
 * of the same `what` with the same values clash. A claim whose values are not all known holds
 * nothing yet.
 */
export interface Claim {
  /** What is held, in words, shared by every type whose objects compete for it: `VLAN on a port`. */
  what: string;
  paths: string[];
  /**
   * The value the API takes for a path the inputs leave out, from the whole inputs (a listener's
   * port follows its protocol); a path only this gives names a value derived from the inputs. Its
   * answer undefined (or a value not known yet) holds nothing.
   */
  defaults?: Record<string, (inputs: any) => unknown>;
  /**
   * Whether what these values name is free again (a VLAN stays held a while after its connection
   * is cancelled); undefined when the API cannot tell (then: free once its holder reads as gone).
   * Absent: free once its holder reads as gone.
   */
  released?(ctx: ResourceContext, values: unknown[]): Promise<boolean | undefined>;
}

/** A use of an object by an object of another type that makes the API refuse its delete (see ReplaceRules.usedBy). */
export interface UsedBy {
  /** The using type's token. */
  token: string;
  /** The using type's input path that names the object (`backendIds[]`: each item of a list). */
  path: string;
  /** The output of the used object named there; absent: its id. */
  output?: string;
  /** The API's refusal of the delete, in words with its code: `the API refuses to release a backend a rule forwards to (4110)`. */
  refusal: string;
}

/** Result of a create: the remote id and everything the resource exposes. */
export interface Created<Out> {
  id: string;
  outputs: Out;
}

/** Import id format: parse returns the canonical id or throws a UserError naming the format. */
export interface ImportIdFormat {
  format: string;
  parse(id: string): string;
}

/** How plumb came to know a recorded object: made by plumb, or read by `plumb import`. */
export interface RecordOrigin {
  /** Read by `plumb import`, not created by plumb: inputs the API never reports are unknown. */
  imported: boolean;
}

/**
 * Secrets of a type's objects: which paths hold them, and whether the id is one. Read wherever
 * values are sealed (planning, applying, refreshing, importing) and by `plumb import`.
 */
export interface Secrets<In = any, C = any, S = any> {
  /** Input/output paths that hold secrets. */
  paths?: string[];
  /**
   * Secret paths that depend on the declared values (which fields of a service's settings its
   * catalogue marks secret), added to `paths` wherever inputs are sealed: when planning,
   * applying and refreshing. It may read remotely (through the context's shared values); values
   * not known yet are Unknown, and it then names what it can.
   */
  pathsFor?(desired: In, ctx: ResourceContext<C, S>): Promise<string[]>;
  /** The id is itself a secret (a service key): state and output show a surrogate. */
  id?: boolean;
}

/**
 * What counts as a change when the recorded object is compared with the manifest (plan) or with
 * what the API reports (drift). Absent: every input and output is compared as recorded.
 */
export interface DiffRules<In = any, Out = any> {
  /** Input paths the remote API sets when omitted (not a change when desired leaves them out). */
  computedInputs?: string[];
  /** Inputs never sent by a change: sent only with the order (promoCode), or used only by plumb (how it detaches). A later change, adding one included, is recorded without a call. */
  recordOnly?: string[];
  /**
   * The recorded inputs as the manifest would state them, compared with `desired` when planning:
   * values the API chose that the manifest leaves to it are left out, a documented default
   * stands for the input left out, and inputs the API never reports that state lacks are the
   * manifest's only for an object `plumb import` read (`origin.imported`), where the type's
   * documentation says so: an object plumb made (`origin` absent or not imported) was sent
   * exactly its recorded inputs, so one written into the manifest later is a change. The type's
   * one place for these rules; anything else that differs is a change. Values arrive as recorded
   * (Secret and Unknown included) and must not be mutated. Absent: compared as recorded.
   */
  asDeclared?(recorded: In, outputs: Out, desired: In, origin?: RecordOrigin): In;
  /**
   * Its read reports only what the inputs it is given name (a schema config of hundreds of tables
   * reports the tables declared): when the manifest names what the record does not, plan reads
   * the object again for the manifest's inputs, so what is written down later is compared with
   * what the API holds (its own value is no change). Absent: a read reports the same whatever
   * the inputs.
   */
  readsDeclared?: boolean;
  /** Output paths the remote API sets (dates, status): never reported as changes or drift. */
  remoteManaged?: string[];
}

/**
 * What a change replaces the object for, and in which order: the rules the plan classifies a
 * change by, and what the new and the old object must not hold at once.
 */
export interface ReplaceRules<In = any> {
  /** Static rules: a change at one of these paths always replaces the object. */
  on: ReplaceRule[];
  /**
   * Rules that depend on values (e.g. VXC partner configs): a change to one of `inputs` replaces
   * the object for some values only, as `rules` decides; `rules` is called only when prior inputs
   * exist and differ, and names only paths under `inputs`.
   */
  when?: {
    inputs: string[];
    rules(prior: In, desired: In): ReplaceRule[];
  };
  /**
   * Replace by deleting first: always (a VXC's VLAN would collide), or when this says so for the
   * recorded and desired inputs. Absent: when the new object would hold a claim the old one holds
   * (see `holds`), else create first.
   */
  deleteFirst?: boolean | ((prior: In, desired: In) => boolean);
  /**
   * What an object holds that no other may hold at once — a VLAN on a port, an EIP's binding, an
   * address range in a VPC, a name — named by input paths. A replacement that would hold the same
   * is made delete-first, and waits until the old object has let it go; an object of another
   * address taking it over waits for that one's delete; a plan the API could not accept in any
   * order says so before any call.
   */
  holds?: Claim[];
  /**
   * The objects of other types whose use of this one makes the API refuse its delete (a rule
   * forwarding to a backend). A replacement that must delete first, because its new object needs
   * a claim the old one holds, while a dependant the plan keeps still names the old object, is
   * refused before any call: no order of one run works. The plan names the runs that do.
   */
  usedBy?: UsedBy[];
}

/** What the plan says beyond the change itself: warnings about the inputs, and what an update or a delete means. */
export interface Notes<In = any, Out = any, S = any> {
  /** Deprecation and usage warnings for desired inputs, reported by validate and plan. */
  desired?(inputs: In): string[];
  /** What an in-place update does beyond the change itself (stopping and starting a machine). */
  update?(prior: In, desired: In): string[];
  /** What deleting this object means beyond its removal (a contract cancelled now or at the end of its term). */
  delete?(recorded: { inputs: In; outputs: Out }, settings: S): string[];
}

/** What an object costs, in the API's own currency (never converted). */
export interface Quote {
  /** The monthly amount, in `currency` units. */
  monthly: number;
  /** Charges made once (setup), in `currency` units; 0 when there are none. */
  oneOff: number;
  /** The API's currency code (`USD`, `AUD`; `CNY` for the cloud API, which names none). */
  currency: string;
  /** How the amount was reached, where it is not simply the API's monthly price (`estimate: 2 × one port's price`). */
  basis?: string;
}

/** What a quote may use: the provider's client (its rate window and retries) and settings, and the run's shared values (one call per query). */
export type QuoteContext<C = any, S = any> = Pick<ResourceContext<C, S>, 'client' | 'settings' | 'shared'> & {
  /**
   * The desired inputs of a resource the same plan creates (or replaces), by address: what a value
   * known only after apply will come from (a new port's location, for a VXC to it). Absent outside a plan.
   */
  planned?(address: string): Record<string, unknown> | undefined;
};

/** What a change is charged or refunded at once, as the API prices the change itself. */
export interface ChangeCharge {
  /** Positive: charged now; negative: refunded (for the rest of the paid period), in `currency` units. */
  amount: number;
  currency: string;
  /** What the amount covers (`for the rest of the paid period`). */
  basis?: string;
}

/**
 * What an object of a type costs: a quote for given inputs (the manifest's, or the ones state
 * records: a change is priced as the difference of the two), or the reason it has none.
 */
export type Cost<In = any, Out = any, C = any, S = any> =
  | {
      /**
       * What an object with these inputs costs, or why these inputs have no price (a line the price
       * call does not know); throws when the price call fails (the caller says "price unavailable").
       * `recorded`: the object state records, when the inputs are its (a bill, a delete), for a price
       * that depends on which object it is (an anti-DDoS IP within its instance's free quota or not).
       */
      quote(inputs: In, ctx: QuoteContext<C, S>, recorded?: { id: string; outputs: Out }): Promise<Quote | { unpriced: string }>;
      /** The API call that prices it, as the reference docs name it (`POST /v4/pricebook/product`, `GetUHostInstancePrice`). */
      source?: string;
      /**
       * What updating the recorded object to `desired` is charged (or refunded) at once, where the API
       * prices a change itself (the cloud's `…UpgradePrice` Actions); undefined when it prices no
       * part of this change (nothing prepaid, or a driver no such call takes); throws when the call fails.
       */
      change?(prior: { id: string; inputs: In; outputs: Out }, desired: In, ctx: QuoteContext<C, S>): Promise<ChangeCharge | undefined>;
      /** When the object's term ends (RFC 3339), from what the API reports; undefined without a term. A delete before then pays the rest of it. */
      termEnds?(outputs: Out): string | undefined;
      /** Whether a delete under these settings cancels at the end of the term instead of now: the object then stays live, and billed, until `termEnds`. */
      cancelsAtTermEnd?(settings: S): boolean;
    }
  | {
      /** Why no price can be quoted: `usage-priced: monthly active rows`, `no price action`, `not billed on its own`. */
      unpriced: string;
    };

/**
 * How an object the API reports is on its way: read when waiting for an order, when settling an
 * interrupted one and when refreshing. Absent: every object reported is ready, and listed at once.
 */
export interface Provisioning {
  /** Whether an object the API reports is ready for use (a product still provisioning is not); default ready. */
  ready?(outputs: Record<string, unknown>): boolean;
  /**
   * The API's word for an object whose provisioning failed (`FAILED`, `Install Fail`), the
   * evidence that taints it for replacement; undefined while it is ready or still on its way. An
   * object neither ready nor failed is still provisioning: it is waited for, never replaced.
   */
  failed?(outputs: Record<string, unknown>): string | undefined;
  /** The API's word for where an object is (`DEPLOYABLE`, `CREATING`), shown while it is waited for. */
  status?(outputs: Record<string, unknown>): string | undefined;
  /**
   * How long, after its order was accepted, a new object may go unlisted (an API that lists objects
   * only once they are provisioned). Until then, a read that finds nothing is no evidence that the
   * order made nothing: the order is waited for, never bought again. Default 0: listed at once.
   */
  appearsWithinMs?: number;
}

/**
 * A resource type is data plus verbs: what it is (token, schemas), its rules in groups (secrets,
 * diff, replace, notes, provisioning, cost, cross-check, import id), then the verbs. Handlers observe
 * before they act and are idempotent: deleting something already gone succeeds; a create that
 * finds its own tagged object adopts it.
 */
export interface ResourceType<In = any, Out = any, C = any, S = any> {
  token: string;
  provider: string;
  description: string;
  // zod's core schema interface, not its classic one: checking every type's schemas against the
  // classic interface's many methods was most of what type-checking the project cost. Parse with
  // z.parse(schema, value) and z.safeParse.
  inputs: z.core.$ZodType<In>;
  outputs: z.core.$ZodType<Out>;
  secrets?: Secrets<In, C, S>;
  diff?: DiffRules<In, Out>;
  replace: ReplaceRules<In>;
  notes?: Notes<In, Out, S>;
  provisioning?: Provisioning;
  /** What an object costs, or why it cannot be priced; every registered type has one (a registry test holds it to that). */
  cost?: Cost<In, Out, C, S>;
  /**
   * What the remote API would refuse only at apply, found before any order by looking at the
   * rest of the stack (a VLAN already used on the port, a rate limit above the port's speed).
   * Values not known yet are Unknown; a check that cannot conclude says nothing.
   */
  crossCheck?(desired: In, view: CrossCheckView): CrossProblem[] | Promise<CrossProblem[]>;
  /** How an id given to `plumb import` is written, and its check. */
  importId?: ImportIdFormat;
  create(ctx: ResourceContext<C, S>, inputs: In): Promise<Created<Out>>;
  /** Reads the object; undefined when it is gone (deleted, decommissioned). */
  read(ctx: ResourceContext<C, S>, id: string, prior?: { inputs: In; outputs: Out }): Promise<Out | undefined>;
  /**
   * Reads many objects of this type at once, where the API lists them: the observed outputs by id,
   * as `read` would report each, or undefined for one the list reports gone (decommissioned). An id
   * absent from the map was not listed; the engine then reads it once with `read` before calling it
   * gone (a list can lag). Calls per object are only for what no list carries and the target
   * manages (its recorded inputs). `ctx.address` is empty: the targets are many. Absent: every
   * object is read alone.
   */
  readMany?(ctx: ResourceContext<C, S>, targets: Array<ReadTarget<In, Out>>): Promise<Map<string, Out | undefined>>;
  update(ctx: ResourceContext<C, S>, id: string, prior: { inputs: In; outputs: Out }, desired: In): Promise<Out>;
  delete(ctx: ResourceContext<C, S>, id: string, prior: { inputs: In; outputs: Out }): Promise<void>;
  /**
   * Whose object plumb's ownership marks (tags) say it is, for objects that carry them; undefined
   * for one without them. An import of an object another project or stack manages is refused
   * unless forced.
   */
  owner?(ctx: ResourceContext<C, S>, id: string): Promise<Ownership | undefined>;
  /**
   * Removes plumb's ownership marks from the object, leaving the user's own tags or labels as
   * they are, so that another project or stack can import it (`plumb state rm`). Observes first:
   * an object without marks is left alone, and one that is gone is no error. Every type with
   * `owner` has it (a test derived from the registry holds it to that).
   */
  disown?(ctx: ResourceContext<C, S>, id: string): Promise<Disowned>;
  /** Lists the remote objects of this type the account can see (import discovery). */
  list?(ctx: ResourceContext<C, S>): Promise<Array<Created<Out>>>;
  /**
   * Finds the object an interrupted create left, when no id was recorded: by the ownership tags
   * carrying the operation's token, or, for a type whose objects carry none, by what identifies
   * one among the inputs it was ordered with (undefined for a create journaled without them).
   */
  findOwned?(ctx: ResourceContext<C, S>, inputs: In | undefined, order: InterruptedOrder): Promise<Created<Out> | undefined>;
}

/** The project (a manifest's name), stack and address an object's ownership marks name; older marks name no project. */
export interface Ownership {
  project?: string;
  stack?: string;
  address?: string;
}

/**
 * What `disown` found: marks it removed, an object that carried none, or no object (gone, or not
 * seen by this connection's account), in which case nothing was removed anywhere.
 */
export type Disowned = 'removed' | 'unmarked' | 'gone';

/** What is known of an interrupted create besides its inputs. */
export interface InterruptedOrder {
  /**
   * The earliest the remote API can have made the object, in epoch milliseconds: when the intent
   * was journaled, less a margin for the API's clock running behind this machine's.
   */
  earliestMs: number;
  /** Whether state already records an object of this type with this id, at any address (so it is not the one). */
  recorded(id: string): boolean;
}

/** A resource of the stack as a cross-check sees it: what the manifest declares, what state records, or both. */
export interface StackResource {
  address: string;
  token: string;
  /** The declared inputs as far as they are known before any call: references to resources are Unknown, named by their source. */
  desired?: Record<string, unknown>;
  /** What state records (before this plan). */
  recorded?: { id: string; inputs: Record<string, unknown>; outputs: Record<string, unknown>; imported?: boolean };
}

/** What a cross-check sees of the rest of the stack. */
export interface CrossCheckView {
  /** The address of the resource checked. */
  address: string;
  /** Every resource the manifest declares or state records, this one included, in the order of the manifest then state. */
  resources: readonly StackResource[];
  /**
   * What `build` makes, made once per plan and shared by every check that asks for `key`: an
   * index of `resources` (VLANs by port, say), so checking N resources against each other stays
   * linear in N.
   */
  memo<T>(key: string, build: () => T): T;
  /** The resource a value names: a reference to it (known or not) or its recorded id; undefined for any other value. */
  resolve(value: unknown): StackResource | undefined;
  /** Whether state was read: without it (validate), whether a declared resource exists already is not known. */
  stateRead: boolean;
  /** Calls a lookup function (a remote read), where the command may make one; absent otherwise. */
  lookup?(token: string, args: Record<string, unknown>): Promise<unknown>;
}

/** A problem a cross-check found, at an input path. */
export interface CrossProblem {
  path: Array<string | number>;
  message: string;
  detail?: string;
}

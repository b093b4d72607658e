import type { Command } from 'commander';
import { isGlobalFlag } from './flags.js';

/*
 * What `--help` shows: `plumb --help` lists the commands by what they are for and the global
 * flags once, in their own group; a command's help shows its own flags, names the global ones in
 * one line, and ends with examples that run as written.
 */

/** The groups of `plumb --help`, in order; a command in none is listed under "Other commands". */
const GROUPS: Array<[heading: string, commands: string[]]> = [
  ['Core commands:', ['plan', 'apply', 'destroy']],
  ['Inspect commands:', ['output', 'show', 'drift', 'cost', 'graph', 'schema', 'lookup', 'validate']],
  ['State commands:', ['import', 'refresh', 'state', 'config', 'stack']],
];

/** Examples per command (by its path below plumb), each `[command line, what it does]`. */
const EXAMPLES: Record<string, Array<[string, string]>> = {
  '': [
    ['plumb plan', 'show what applying plumb.yaml would change'],
    ['plumb apply -f examples/interconnect/port.yaml --stack dev', 'apply another manifest to the stack "dev"'],
  ],
  plan: [
    ['plumb plan', 'plan plumb.yaml for the stack "default"'],
    ['plumb plan --stack prod --config speed=10000 --out plan.json', 'plan the stack "prod" with one config value set, saved for apply'],
  ],
  apply: [
    ['plumb apply', 'plan, ask, then apply'],
    ['plumb apply plan.json', 'apply a plan saved by plan --out'],
  ],
  destroy: [
    ['plumb destroy', 'plan deleting every resource of the stack, ask, then delete'],
    ['plumb destroy --target port -y', 'delete one resource and what depends on it, without asking'],
  ],
  validate: [
    ['plumb validate', 'check plumb.yaml without calling any API'],
    ['plumb validate -f other.yaml --json', 'the result and every problem as JSON'],
  ],
  import: [
    ['plumb import port interconnect:Port 6f0c2a1e', 'adopt one Port under the address "port"'],
    ['plumb import --discover interconnect:Port --out found.yaml', 'list the Ports state does not hold, as manifest YAML'],
  ],
  drift: [
    ['plumb drift', 'compare remote objects with state'],
    ['plumb drift --all --format markdown', 'every stack, as a pull-request comment'],
  ],
  cost: [
    ['plumb cost', 'what each resource of the stack costs a month, and the total per provider'],
    ['plumb cost --stack prod --json', 'the bill of the stack "prod", as JSON'],
  ],
  refresh: [['plumb refresh -y', 'record what the remote APIs report, without asking']],
  output: [
    ['plumb output', 'every output of the stack'],
    ['plumb output portId --raw', 'one output as it is, for scripts'],
  ],
  show: [['plumb show plan.json', 'a plan saved by plan --out']],
  state: [
    ['plumb state list', 'the addresses in state'],
    ['plumb state mv port edgePort', 'rename an address'],
  ],
  'state list': [['plumb state list --stack prod', 'the addresses in the stack "prod"']],
  'state show': [['plumb state show port --json', 'one resource as recorded, as JSON']],
  'state pull': [['plumb state pull > backup.json', 'save the state (secrets stay encrypted)']],
  'state push': [['plumb state push backup.json', 'put a saved state back']],
  'state rm': [['plumb state rm port', 'forget a resource without deleting it']],
  'state mv': [['plumb state mv port edgePort', 'rename an address']],
  'state unlock': [['plumb state unlock --force', 'remove a stale lock']],
  'state repair': [['plumb state repair --accept-lost-journal', "keep what state.json holds after an interrupted apply's journal was lost"]],
  config: [
    ['plumb config set speed 10000', 'set a config value for the stack'],
    ['plumb config list --stack prod', "the stack's values"],
  ],
  'config set': [
    ['plumb config set speed 10000', 'set a config value for the stack'],
    ['plumb config set apiKey --secret < key.txt', 'a secret, read from stdin'],
  ],
  'config get': [['plumb config get speed', "print the stack's value"]],
  'config rm': [['plumb config rm speed', 'remove it from the settings file']],
  'config list': [['plumb config list --show-secrets', 'every value, secrets shown']],
  stack: [['plumb stack ls', "the project's stacks"]],
  'stack ls': [['plumb stack ls', "the project's stacks"]],
  lookup: [['plumb lookup interconnect:getLocations --arg metro=Sydney', 'the interconnect locations in Sydney']],
  schema: [
    ['plumb schema', 'every resource type and function'],
    ['plumb schema interconnect:Port', "one type's inputs and outputs"],
  ],
  graph: [
    ['plumb graph | dot -Tsvg > graph.svg', 'the dependency graph, drawn by Graphviz'],
    ['plumb graph --format mermaid', 'as a Mermaid diagram'],
  ],
  init: [['plumb init interconnect', 'write a starter plumb.yaml for interconnect']],
  version: [['plumb version --json', 'the versions of plumb and node, as JSON']],
  completion: [['source <(plumb completion bash)', 'complete plumb commands in bash']],
  sandbox: [['plumb sandbox start', "serve every provider's simulated API"]],
  'sandbox start': [['plumb sandbox start --port 4567 --provisioning-ms 0', 'on a fixed port, products provisioned at once']],
  'sandbox settings': [['plumb sandbox settings --provisioning-ms 2000', 'keep a provisioning time for the sandbox world']],
};

/** The examples of a command, by its path below plumb ("" for plumb itself). */
export function examplesOf(path: string): Array<[string, string]> {
  return EXAMPLES[path] ?? [];
}

/** A command's path below plumb: "config set", "" for plumb itself. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Sets up the help of `program` and every command below it (call once every command is registered). */
export function teachingHelp(program: Command): void {
  for (const option of program.options) if (isGlobalFlag(program, option)) option.helpGroup('Global options:');
  for (const cmd of program.commands) {
    const group = GROUPS.find(([, names]) => names.includes(cmd.name()));
    cmd.helpGroup(group?.[0] ?? 'Other commands:');
  }
  program.commandsGroup('Other commands:').helpCommand('help [command]', 'describe a command');
  const walk = (cmd: Command) => {
    if (cmd !== program) {
      // Still taken here (`plumb plan --stack dev`); described once, in plumb --help.
      for (const option of cmd.options) if (isGlobalFlag(cmd, option)) option.hideHelp();
    }
    cmd.addHelpText('after', () => helpEnd(cmd, cmd === program));
    for (const sub of cmd.commands) if (sub.name() !== 'help') walk(sub);
  };
  walk(program);
}

/** The lines after a command's own help: where the global flags are, then its examples. */
function helpEnd(cmd: Command, isProgram: boolean): string {
  const lines: string[] = [];
  if (!isProgram) lines.push('', 'Global options: -f, --stack, --state, --log-level, --log-format, --log-file, --no-color (see plumb --help)');
  const examples = examplesOf(commandPath(cmd));
  if (examples.length) {
    const width = Math.max(...examples.map(([line]) => line.length));
    lines.push('', 'Examples:', ...examples.map(([line, what]) => `  ${line.padEnd(width)}  # ${what}`));
  }
  return lines.join('\n');
}

import type { Command } from 'commander';
import { UserError } from '../kernel/errors.js';

/*
 * Completion scripts made from the command tree itself, so a new command or flag completes as
 * soon as it exists. Each completes, after the commands that lead to it, that command's
 * subcommands or, for a word starting with "-", its flags; anything else completes file names.
 */

/** One command of the tree: its path below `plumb` ("" for plumb itself), subcommands and flags. */
interface Node {
  path: string;
  summary: string;
  subcommands: string[];
  flags: string[];
}

/** Every command of the tree, `plumb` first. */
function nodes(program: Command): Node[] {
  const out: Node[] = [];
  const walk = (cmd: Command, path: string) => {
    const subcommands = cmd.commands.map((c) => c.name()).filter((name) => name !== 'help');
    const flags = [...cmd.options.flatMap((o) => [o.long, o.short]).filter((f): f is string => Boolean(f)), '--help'];
    out.push({ path, summary: cmd.description(), subcommands, flags });
    for (const sub of cmd.commands) if (sub.name() !== 'help') walk(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  walk(program, '');
  return out;
}

/** `plumb completion bash|zsh|fish`: prints the script; how to install it is in its first lines. */
export async function completionCommand(shell: string, program: Command): Promise<number> {
  const all = nodes(program);
  switch (shell) {
    case 'bash':
      process.stdout.write(bash(all));
      return 0;
    case 'zsh':
      process.stdout.write(zsh(all));
      return 0;
    case 'fish':
      process.stdout.write(fish(all));
      return 0;
    default:
      throw new UserError(`no completion for shell "${shell}"`, 'plumb completion bash | zsh | fish');
  }
}

const key = (path: string) => path || 'plumb';
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function bash(all: Node[]): string {
  const table = (name: string, pick: (n: Node) => string[]) => `declare -gA ${name}=(\n${all.map((n) => `  [${quote(key(n.path))}]=${quote(pick(n).join(' '))}`).join('\n')}\n)\n`;
  return `# plumb completion for bash. Load it in ~/.bashrc:  source <(plumb completion bash)
${table('_plumb_words', (n) => n.subcommands)}${table('_plumb_flags', (n) => n.flags)}
_plumb() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" w next
  for w in "\${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    [[ "$w" == -* ]] && continue
    next="\${path:+$path }$w"
    [[ -n "\${_plumb_words[$next]+set}" ]] && path="$next"
  done
  local at="\${path:-plumb}"
  if [[ "$cur" == -* ]]; then
    COMPREPLY=( $(compgen -W "\${_plumb_flags[$at]}" -- "$cur") )
  else
    COMPREPLY=( $(compgen -W "\${_plumb_words[$at]}" -- "$cur") )
  fi
}
complete -o default -F _plumb plumb
`;
}

function zsh(all: Node[]): string {
  const table = (name: string, pick: (n: Node) => string[]) => `${name}=(\n${all.map((n) => `  ${quote(key(n.path))} ${quote(pick(n).join(' '))}`).join('\n')}\n)\n`;
  return `#compdef plumb
# plumb completion for zsh. Load it in ~/.zshrc (after compinit):  source <(plumb completion zsh)
typeset -gA _plumb_words _plumb_flags
${table('_plumb_words', (n) => n.subcommands)}${table('_plumb_flags', (n) => n.flags)}
_plumb() {
  local at=plumb path="" w next
  for w in \${words[2,CURRENT-1]}; do
    [[ $w == -* ]] && continue
    next="\${path:+$path }$w"
    (( \${+_plumb_words[$next]} )) && path=$next
  done
  [[ -n $path ]] && at=$path
  if [[ $PREFIX == -* ]]; then
    compadd -- \${=_plumb_flags[$at]}
  elif [[ -n \${_plumb_words[$at]} ]]; then
    compadd -- \${=_plumb_words[$at]}
  else
    _files
  fi
}
compdef _plumb plumb
`;
}

function fish(all: Node[]): string {
  const lines = ['# plumb completion for fish. Save it:  plumb completion fish > ~/.config/fish/completions/plumb.fish'];
  for (const n of all) {
    const words = n.path ? n.path.split(' ') : [];
    // This command's words are all present, and none of its subcommands yet.
    const here = [...words.map((w) => `__fish_seen_subcommand_from ${w}`), ...(n.subcommands.length ? [`not __fish_seen_subcommand_from ${n.subcommands.join(' ')}`] : [])];
    const condition = n.path ? here.join('; and ') : n.subcommands.length ? `not __fish_seen_subcommand_from ${n.subcommands.join(' ')}` : '';
    const when = condition ? ` -n ${quote(condition)}` : '';
    for (const name of n.subcommands) {
      const sub = all.find((m) => m.path === [...words, name].join(' '));
      lines.push(`complete -c plumb${when} -f -a ${quote(name)} -d ${quote(sub?.summary ?? '')}`);
    }
    for (const flag of n.flags) lines.push(`complete -c plumb${when} ${flag.startsWith('--') ? `-l ${flag.slice(2)}` : `-s ${flag.slice(1)}`}`);
  }
  return `${lines.join('\n')}\n`;
}

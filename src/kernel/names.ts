/**
 * Project and stack names. Each names a folder (or a row) of the state location, so neither may
 * hold anything that reaches outside it. One rule, one wording: the manifest's checks, which every
 * command runs first (validate included), and the state stores, which refuse a name that reaches
 * them another way (the state commands' `--project`), say the same.
 */

/** A problem with a name, as a diagnostic or a UserError says it. */
export interface NameProblem {
  summary: string;
  detail: string;
}

/** What is wrong with a project or stack name, or undefined. */
export function nameProblem(name: string): string | undefined {
  if (/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(name)) return undefined;
  return 'a name is up to 100 letters, digits, ".", "_" and "-", starting with a letter or digit';
}

/** The stack's name (`--stack`), or undefined when it can name its state. */
export function stackNameProblem(stack: string): NameProblem | undefined {
  const problem = nameProblem(stack);
  return problem === undefined ? undefined : { summary: `invalid stack name "${stack}"`, detail: problem.replace('a name', 'a stack name') };
}

/**
 * The project a manifest's state is kept under: its `name:` (`named`), or without one its file's
 * name less the extension. Undefined when it can name that state.
 */
export function projectNameProblem(project: string, named: boolean): NameProblem | undefined {
  const problem = nameProblem(project);
  if (!problem) return undefined;
  if (named) return { summary: `the manifest's name "${project}" cannot name the folder its state is kept in`, detail: `${problem} (the state of each manifest is kept under its name)` };
  return { summary: `a manifest without a name keeps its state under its file name, and "${project}" cannot name it`, detail: `give the manifest a name: ${problem}` };
}

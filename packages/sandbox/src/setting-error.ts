/**
 * A value given for one of the sandbox's settings (a command-line flag or an environment variable)
 * that is not valid. The message names where the value came from and what is valid.
 */
export class SandboxSettingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxSettingError';
  }
}

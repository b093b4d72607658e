/**
 * A resource option's mistake is shown at the option's entry that is wrong (the list item, the
 * value), not at the resource: `dependsOn`, `ignoreChanges`, `replaceOnChanges`, `hideDiffs`,
 * `additionalSecretOutputs` and `import`.
 */
import { describe, expect, it } from 'vitest';
import { plumb, workdir, writeManifest } from '../support/cli.js';

const PORT = 'type: interconnect:Port\n    properties: { productName: a, portSpeed: 1000, locationId: 2, contractTermMonths: 1, marketplaceVisibility: false }';

async function validate(options: string): Promise<string> {
  const dir = workdir();
  writeManifest(dir, 'plumb.yaml', `name: opts\nvariables:\n  v: 1\nresources:\n  b:\n    ${PORT}\n  a:\n    ${PORT}\n    options:\n${options}`);
  const result = await plumb(['validate'], { cwd: dir });
  expect(result.code).toBe(1);
  return result.stderr;
}

describe('an option mistake is shown at its entry', () => {
  it('dependsOn: a name not defined, a name that is not a resource, each at its list item', async () => {
    const stderr = await validate('      dependsOn:\n        - ${b}\n        - ${nope}\n        - ${v}\n');
    expect(stderr).toContain('plumb.yaml:14:11: error: dependsOn target "nope" is not defined\n  14 |         - ${nope}\n     |           ^~~~~~~\n');
    expect(stderr).toContain('plumb.yaml:15:11: error: dependsOn "v" is not a resource\n  15 |         - ${v}\n     |           ^~~~\n');
  });

  it('ignoreChanges and replaceOnChanges: the misspelt path, in a block list or a flow list', async () => {
    const stderr = await validate('      ignoreChanges:\n        - productName\n        - portSped\n      replaceOnChanges: [locationId, locatonId]\n');
    expect(stderr).toContain(
      'plumb.yaml:14:11: error: option ignoreChanges: "portSped": interconnect:index/port:Port has no property "portSped"\n  14 |         - portSped\n     |           ^~~~~~~~\n',
    );
    expect(stderr).toContain('plumb.yaml:15:38: error: option replaceOnChanges: "locatonId"');
    expect(stderr).toContain('  15 |       replaceOnChanges: [locationId, locatonId]\n     |                                      ^~~~~~~~~\n');
  });

  it('hideDiffs and additionalSecretOutputs: the name that is not there, not the list', async () => {
    const stderr = await validate('      hideDiffs: [productName, portSpd]\n      additionalSecretOutputs: [foo]\n');
    expect(stderr).toContain('plumb.yaml:12:32: error: hideDiffs: interconnect:index/port:Port has no input "portSpd"');
    expect(stderr).toContain('plumb.yaml:13:33: error: additionalSecretOutputs: interconnect:index/port:Port has no output "foo"');
  });

  it('import: an id of the wrong form, at the id', async () => {
    const stderr = await validate('      import: "bad id"\n');
    expect(stderr).toContain('plumb.yaml:12:15: error: invalid import id "bad id"');
    expect(stderr).toContain('  12 |       import: "bad id"\n     |               ^~~~~~~~\n');
  });
});

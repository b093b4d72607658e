import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/manifest/parse.js';

const catalog = { resources: ['interconnect:index/port:Port'], functions: [] };
const withOptions = (options: string) => `name: o\nresources:\n  port:\n    type: interconnect:Port\n    options:\n${options}`;

describe('resource options', () => {
  it('customTimeouts takes durations for create, update and delete', () => {
    const { manifest, diagnostics } = parseManifest(withOptions('      customTimeouts: { create: 90s, update: 1h30m, delete: 2m }\n'), 'm.yaml', catalog);
    expect(diagnostics).toEqual([]);
    expect(manifest.resources.port.options.customTimeouts).toEqual({ create: 90_000, update: 5_400_000, delete: 120_000 });
  });

  it('customTimeouts names what is wrong at its position: an unknown verb, a bad duration, not a mapping', () => {
    const errors = (options: string) => parseManifest(withOptions(options), 'm.yaml', catalog).diagnostics.map((d) => `${d.pos?.line}:${d.pos?.column} ${d.summary}`);
    expect(errors('      customTimeouts:\n        refresh: 1m\n        create: soon\n')).toEqual([
      '7:9 customTimeouts has no "refresh"; valid: create, update, delete, read',
      '8:17 customTimeouts.create must be a duration like 90s, 30m or 1h',
    ]);
    expect(errors('      customTimeouts: 5m\n')).toEqual(['6:23 customTimeouts must be a mapping of create/update/delete/read to durations like 30m']);
  });

  it('an option written through an alias is read as its anchor', () => {
    const yaml = `name: o\nvariables:\n  keep: &keep true\nresources:\n  port:\n    type: interconnect:Port\n    options:\n      protect: *keep\n`;
    const { manifest, diagnostics } = parseManifest(yaml, 'm.yaml', catalog);
    expect(diagnostics).toEqual([]);
    expect(manifest.resources.port.options.protect).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../../src/manifest/parse.js';
import { inputReferences } from '../../../src/engine/evaluation/input-references.js';

describe('input references', () => {
  it('names the reference each whole input value comes from, nested and in lists; templates and literals are not references', () => {
    const yaml = `name: refs
resources:
  vxc:
    type: interconnect:Vxc
    properties:
      productName: "vxc-\${port.productName}"
      aEnd: { requestedProductUid: "\${port.productUid}", vlan: 100 }
      bEnd:
        requestedProductUid: \${router.productUid}
      tags: ["\${router.id}", plain]
`;
    const { manifest, diagnostics } = parseManifest(yaml, 'refs.yaml', { resources: ['interconnect:index/vxc:Vxc'], functions: [] });
    expect(diagnostics).toEqual([]);
    expect(inputReferences(manifest.resources.vxc.properties)).toEqual({
      'aEnd.requestedProductUid': 'port.productUid',
      'bEnd.requestedProductUid': 'router.productUid',
      'tags[0]': 'router.id',
    });
  });
});

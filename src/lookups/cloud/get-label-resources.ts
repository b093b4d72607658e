/** getLabelResources: resources carrying one label. */
import * as z from 'zod';
import { listLabelledResources } from '../../providers/cloud/api/label.js';
import { str } from '../../providers/cloud/wire.js';
import { cloudLookup, listResultBase, outputFileArg, summary, writeOutputFile } from './kit.js';

const argsShape = {
  key: z.string().min(1).describe('Label key. Required.'),
  value: z.string().min(1).describe('Label value. Required.'),
  projectIds: z.array(z.string().min(1)).min(1).describe('Projects to look in. Required (at least one).'),
  resourceTypes: z.array(z.string().min(1)).min(1).describe('Resource types to look for, e.g. `uhost`, `udb`, `ulb`, `eip`. Required (at least one).'),
  outputFile: outputFileArg,
};

const resource = z.object({
  id: z.string().describe('Resource id.'),
  name: z.string().describe('Resource name.'),
  type: z.string().describe('Resource type.'),
});

const result = z.object({ ...argsShape, ...listResultBase, resources: z.array(resource).describe('The labelled resources.') });

/** Lists the resources of the given types and projects that carry `key=value`. */
export const getLabelResources = cloudLookup({
  name: 'getLabelResources',
  description: 'Resources of the given types and projects that carry a label.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const all = await listLabelledResources(ctx.client, { Labels: [{ Key: args.key, Value: args.value }], ResourceTypes: args.resourceTypes, ProjectIds: args.projectIds });
    const resources = all.map((r) => ({ id: str(r.ResourceId), name: str(r.ResourceName), type: str(r.ResourceType) }));
    await writeOutputFile(ctx, args.outputFile, resources);
    return { ...args, ...summary(resources.map((r) => r.id)), resources };
  },
});

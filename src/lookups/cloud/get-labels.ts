/** getLabels: custom labels with the projects that use them. */
import * as z from 'zod';
import { listLabels } from '../../providers/cloud/api/label.js';
import { str } from '../../providers/cloud/wire.js';
import { cloudLookup, filterItems, hashIds, listResultBase, outputFileArg, regexArg, writeOutputFile } from './kit.js';

const argsShape = {
  keyRegex: regexArg('keyRegex', 'Regular expression (unanchored) the label key must match. Default: every key.'),
  outputFile: outputFileArg,
};

const project = z.object({
  id: z.string().describe('Project id.'),
  name: z.string().describe('Project name.'),
  resourceTypes: z.array(z.string()).describe('Resource types in the project carrying the label.'),
  disabledResourceTypes: z.array(z.string()).describe('Resource types for which the label is disabled.'),
});

const label = z.object({
  key: z.string().describe('Label key.'),
  value: z.string().describe('Label value.'),
  projects: z.array(project).describe('Projects using the label.'),
});

const result = z.object({ ...argsShape, ...listResultBase, labels: z.array(label).describe('The matching labels.') });

interface LabelProject {
  ProjectId: string;
  ProjectName: string;
  ResourceTypes?: string[];
  DisabledResourceTypes?: string[];
}

/** Lists custom labels, then the projects of each (one call per label). */
export const getLabels = cloudLookup({
  name: 'getLabels',
  description: 'Custom labels (key and value), each with the projects that use it.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const all = await listLabels(ctx.client);
    const matches = filterItems(all, { nameRegex: args.keyRegex, nameOf: (l) => l.Key });
    const labels = [];
    for (const l of matches) {
      const body = await ctx.client.call<{ Projects?: LabelProject[] }>('ListProjectsByLabels', { Labels: [{ Key: l.Key, Value: l.Value }] });
      labels.push({
        key: str(l.Key),
        value: str(l.Value),
        projects: (body.Projects ?? []).map((p) => ({
          id: str(p.ProjectId),
          name: str(p.ProjectName),
          resourceTypes: p.ResourceTypes ?? [],
          disabledResourceTypes: p.DisabledResourceTypes ?? [],
        })),
      });
    }
    await writeOutputFile(ctx, args.outputFile, labels);
    const ids = labels.map((l) => `${l.key}#${l.value}`);
    return { ...args, id: hashIds(ids), ids, totalCount: labels.length, labels };
  },
});

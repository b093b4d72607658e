/** getDbParameterGroups: database parameter groups, per zone or region-wide (multi-zone). */
import * as z from 'zod';
import { str } from '../../providers/cloud/wire.js';
import { availabilityZoneArg, cloudLookup, filterItems, hashIds, listResultBase, nameRegexArg, outputFileArg, writeOutputFile } from './kit.js';
import { splitDbType } from './get-db-instances.js';

const argsShape = {
  availabilityZone: availabilityZoneArg,
  classType: z.enum(['sql', 'postgresql']).optional().describe('`sql` (MySQL, Percona) or `postgresql`. Default: every engine.'),
  multiAz: z.boolean().optional().describe('true: list the region-wide groups used by multi-zone instances (then availabilityZone must not be set). Default false.'),
  nameRegex: nameRegexArg,
  outputFile: outputFileArg,
};

const group = z.object({
  id: z.string().describe('Group id.'),
  name: z.string().describe('Group name.'),
  engine: z.string().describe('Engine, e.g. `mysql`.'),
  engineVersion: z.string().describe('Engine version, e.g. `8.0`.'),
  isDefault: z.boolean().describe('Whether it is a built-in (unmodifiable) group.'),
  availabilityZone: z.string().describe('Zone of the group (empty for region-wide groups).'),
});

const result = z.object({ ...argsShape, ...listResultBase, parameterGroups: z.array(group).describe('The matching groups.') });

interface ParamGroup {
  GroupId: number;
  GroupName: string;
  DBTypeId: string;
  Modifiable: boolean;
  Zone?: string;
}

/** Lists parameter groups; multiAz with availabilityZone is a positioned argument error. */
export const getDbParameterGroups = cloudLookup({
  name: 'getDbParameterGroups',
  description: 'Database parameter groups of a zone, or region-wide ones for multi-zone instances.',
  args: z.object(argsShape).superRefine(
    (v, ctx) => {
      const value = (v ?? {}) as Record<string, unknown>;
      if (value.multiAz === true && typeof value.availabilityZone === 'string') {
        ctx.addIssue({ code: 'custom', path: ['availabilityZone'], message: 'availabilityZone cannot be set when multiAz is true (multi-zone groups belong to the region)' });
      }
    },
    { when: () => true },
  ),
  result,
  async invoke(ctx, args) {
    const all = await ctx.client.pageAll<ParamGroup>('DescribeUDBParamGroup', { ClassType: args.classType, Zone: args.availabilityZone, RegionFlag: args.multiAz }, 'DataSet');
    const parameterGroups = filterItems(all, { nameRegex: args.nameRegex, nameOf: (g) => g.GroupName }).map((g) => {
      const { engine, version } = splitDbType(str(g.DBTypeId));
      return { id: String(g.GroupId), name: str(g.GroupName), engine, engineVersion: version, isDefault: !g.Modifiable, availabilityZone: str(g.Zone) };
    });
    await writeOutputFile(ctx, args.outputFile, parameterGroups);
    const ids = parameterGroups.map((g) => g.id);
    // Group ids repeat across zones, so the result id hashes zone:id pairs, as upstream does.
    return { ...args, id: hashIds(parameterGroups.map((g) => `${g.availabilityZone}:${g.id}`)), ids, totalCount: ids.length, parameterGroups };
  },
});

/**
 * getGroup: one group by id.
 */
import * as z from 'zod';
import { readGroup } from '../../providers/pipeline/api/groups.js';
import { idArg, orNotFound, pipelineLookup } from './shapes/lookup.js';
import { groupSchema, toGroup } from './shapes/people.js';

/** Arguments of getGroup. */
export const getGroupArgs = z.object({
  id: idArg('Id of the group.'),
});

/** Result of getGroup. */
export const getGroupResult = groupSchema;

/** Looks up one group (GET /groups/{id}). */
export const getGroup = pipelineLookup({
  name: 'getGroup',
  description: 'One group: its name and creation time. Its destination has the same id.',
  args: getGroupArgs,
  result: getGroupResult,
  async call(client, args) {
    const wire = await orNotFound('getGroup', 'group', args.id, () => readGroup(client, args.id));
    return toGroup(wire);
  },
});

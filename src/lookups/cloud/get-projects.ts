/** getProjects: the projects of the account. */
import * as z from 'zod';
import { int, rfc3339, str } from '../../providers/cloud/wire.js';
import { cloudLookup, filterItems, listResultBase, nameRegexArg, outputFileArg, summary, writeOutputFile } from './kit.js';

const argsShape = {
  isFinance: z.boolean().optional().describe('List as a finance (billing) account, which also sees billing-only projects. Default false.'),
  nameRegex: nameRegexArg,
  outputFile: outputFileArg,
};

const project = z.object({
  id: z.string().describe('Project id.'),
  name: z.string().describe('Project name.'),
  parentId: z.string().describe('Parent project id.'),
  parentName: z.string().describe('Parent project name.'),
  resourceCount: z.number().int().describe('Resources in the project.'),
  memberCount: z.number().int().describe('Members of the project.'),
  createTime: z.string().describe('RFC 3339.'),
});

const result = z.object({ ...argsShape, ...listResultBase, projects: z.array(project).describe('The matching projects.') });

interface Project {
  ProjectId: string;
  ProjectName: string;
  ParentId?: string;
  ParentName?: string;
  ResourceCount?: number;
  MemberCount?: number;
  CreateTime: number;
}

/** Lists projects (one call: the Action does not page), filtered by name. */
export const getProjects = cloudLookup({
  name: 'getProjects',
  description: 'Projects of the account, filtered by name.',
  args: z.object(argsShape),
  result,
  async invoke(ctx, args) {
    const body = await ctx.client.call<{ ProjectSet?: Project[] }>('GetProjectList', { IsFinance: args.isFinance ? 'yes' : 'no' }, { project: false });
    const projects = filterItems(body.ProjectSet ?? [], { nameRegex: args.nameRegex, nameOf: (p) => p.ProjectName }).map((p) => ({
      id: p.ProjectId,
      name: str(p.ProjectName),
      parentId: str(p.ParentId),
      parentName: str(p.ParentName),
      resourceCount: int(p.ResourceCount),
      memberCount: int(p.MemberCount),
      createTime: rfc3339(p.CreateTime),
    }));
    await writeOutputFile(ctx, args.outputFile, projects);
    return { ...args, ...summary(projects.map((p) => p.id)), projects };
  },
});

/** What the generated lifecycle suite of the pipeline types is known to find, each with its reason (see tests/support/generated-lifecycle.ts). */
import type { KnownProblems } from '../../support/generated-lifecycle.js';

export const known: KnownProblems = {
  failures: {
    'pipeline:index/destination:Destination config remove': 'new: the plan shows an update that the apply sends nothing for, and the world keeps the old value',
    'pipeline:index/connection:Connection service change': 'finding 8 (shape): a service the API does not offer passes plan, refused at apply',
    'pipeline:index/connection:Connection config remove': 'new: the plan shows an update that the apply sends nothing for, and the world keeps the old value',
    'pipeline:index/connection:Connection auth add':
      'finding 3 (shape): a write-only field added to an object made without it is adopted as declared: "No changes", nothing sent, the object never gets it',
    'pipeline:index/webhook:Webhook groupId remove': 'suite: a group webhook replaced by an account webhook is ordered by another call than the one the baseline learnt',
    'pipeline:index/webhook:Webhook events grow': 'finding 8 (shape): events are any text in the schema; the API takes its listed events only',
    'pipeline:index/connectionSchemaConfig:ConnectionSchemaConfig schemas.public.enabled add': 'new: the plan shows an update that the apply sends nothing for, and the world keeps the old value',
    'pipeline:index/connectionSchemaConfig:ConnectionSchemaConfig schemas.public.tables grow': 'finding 8 (shape): a schema or table the source does not have passes plan, refused at apply',
    'pipeline:index/connectionSchemaConfig:ConnectionSchemaConfig schemas grow': 'finding 8 (shape): a schema or table the source does not have passes plan, refused at apply',
    'pipeline:index/privateLink:PrivateLink service change': 'finding 8 (shape): a service whose config needs other fields passes plan, refused at apply',
    'pipeline:index/hybridDeploymentAgent:HybridDeploymentAgent authType add':
      'finding 3: a write-only field added to an object made without it is adopted as declared: "No changes", nothing sent, the object never gets it',
    'pipeline:index/externalLogging:ExternalLogging service change': 'finding 8 (shape): a service whose config needs other fields passes plan, refused at apply',
    'pipeline:index/externalLogging:ExternalLogging config remove': 'new: the plan shows an update that the apply sends nothing for, and the world keeps the old value',
    'pipeline:index/transformation:Transformation schedule.scheduleType change': 'finding 8 (shape): a schedule missing the fields its type needs passes plan, refused at apply',
    'pipeline:index/transformation:Transformation schedule.timeOfDay remove': 'finding 8 (shape): a schedule missing the fields its type needs passes plan, refused at apply',
  },
  gaps: {
    'pipeline:index/destination:Destination privateLinkId': 'no value its schema and the whole input accept (nor one its spec gives)',
    'pipeline:index/destination:Destination proxyAgentId': 'no value its schema and the whole input accept (nor one its spec gives)',
    'pipeline:index/destination:Destination hybridDeploymentAgentId': 'no value its schema and the whole input accept (nor one its spec gives)',
    'pipeline:index/connection:Connection groupId': 'it names an object of the world, and its spec made no second one to point at',
    'pipeline:index/connection:Connection destinationSchema.prefix': 'the whole input is not valid without it',
    'pipeline:index/connection:Connection destinationSchema.name': 'no value its schema and the whole input accept (nor one its spec gives)',
    'pipeline:index/connection:Connection destinationSchema.table': 'no value its schema and the whole input accept (nor one its spec gives)',
    'pipeline:index/connection:Connection proxyAgentId': 'no value its schema and the whole input accept (nor one its spec gives)',
    'pipeline:index/connection:Connection privateLinkId': 'no value its schema and the whole input accept (nor one its spec gives)',
    'pipeline:index/connection:Connection hybridDeploymentAgentId': 'no value its schema and the whole input accept (nor one its spec gives)',
    'pipeline:index/teamConnectionMembership:TeamConnectionMembership teamId': 'it names an object of the world, and its spec made no second one to point at',
    'pipeline:index/userConnectionMembership:UserConnectionMembership userId': 'it names an object of the world, and its spec made no second one to point at',
    'pipeline:index/transformation:Transformation schedule.connectionIds': 'no value its schema and the whole input accept (nor one its spec gives)',
    'pipeline:index/teamUserMembership:TeamUserMembership teamId': 'it names an object of the world, and its spec made no second one to point at',
    'pipeline:index/teamGroupMembership:TeamGroupMembership teamId': 'it names an object of the world, and its spec made no second one to point at',
    'pipeline:index/userGroupMembership:UserGroupMembership userId': 'it names an object of the world, and its spec made no second one to point at',
  },
  everywhere: {},
};

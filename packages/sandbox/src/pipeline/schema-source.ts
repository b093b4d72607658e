/**
 * What a connection's source holds (schemas, tables, columns), as a reload of its schema config
 * captures it. A database holds an orders application's tables in `public` and `sales`; a SaaS
 * source the objects of its API in one schema named after the connection. A test or demo can
 * give one connection a source of its own (`POST /_sandbox/pipeline-source`), as a person would
 * add tables to their database.
 */
import type { Connection, PipelineData } from './model.js';

/** A source: schema → table → its columns (the first is the primary key). */
export type Source = Record<string, Record<string, string[]>>;

const DATABASE: Source = {
  public: {
    customers: ['id', 'email', 'full_name', 'phone', 'created_at', 'updated_at'],
    orders: ['id', 'customer_id', 'status', 'total', 'currency', 'created_at', 'updated_at'],
    order_items: ['id', 'order_id', 'product_id', 'quantity', 'unit_price'],
    products: ['id', 'sku', 'title', 'price', 'active'],
    payments: ['id', 'order_id', 'card_number', 'card_holder', 'amount', 'paid_at'],
    refunds: ['id', 'payment_id', 'amount', 'reason', 'refunded_at'],
    audit_log: ['id', 'actor', 'action', 'payload', 'at'],
    sessions: ['id', 'customer_id', 'token', 'ip_address', 'started_at'],
  },
  sales: {
    invoices: ['id', 'customer_id', 'number', 'amount', 'due_at'],
    quotes: ['id', 'customer_id', 'amount', 'valid_until'],
    regions: ['id', 'name', 'manager_email'],
  },
};

const SAAS_OBJECTS: Record<string, string[]> = {
  account: ['id', 'name', 'owner_email', 'created_at'],
  contact: ['id', 'account_id', 'email', 'phone', 'created_at'],
  event: ['id', 'type', 'payload', 'created_at'],
  invoice: ['id', 'account_id', 'amount', 'status', 'created_at'],
  user: ['id', 'email', 'name', 'last_login_at'],
};

const DATABASES = ['postgres', 'mysql', 'sql_server', 'oracle', 'azure_sql_db', 'mongo', 'dynamodb'];

/** Databases keep their change history: their tables can switch sync mode. */
export function isDatabase(connection: Connection): boolean {
  return DATABASES.includes(connection.service);
}

/** What the connection's source holds now. */
export function sourceOf(connection: Connection, data: PipelineData): Source {
  const given = data.schemaSources?.[connection.id];
  if (given && given.createdAt === connection.created_at) return given.schemas;
  if (isDatabase(connection)) return DATABASE;
  // A file or SaaS connection loads one schema, named as the connection is.
  const schema = connection.schema.split('.')[0];
  return { [schema]: SAAS_OBJECTS };
}

/** `POST /_sandbox/pipeline-source {connection_id, schemas: {<schema>: {<table>: [columns]}}}`: gives a connection's source these tables. */
export function setSource(body: unknown, data: PipelineData): { status: number; body: unknown } {
  const v = (body ?? {}) as { connection_id?: unknown; schemas?: unknown };
  const connection = data.connections.find((c) => c.id === v.connection_id);
  if (!connection) return { status: 404, body: { message: `no connection '${String(v.connection_id)}'` } };
  if (!isSource(v.schemas)) return { status: 400, body: { message: 'schemas must map schema names to tables, each a non-empty list of column names' } };
  data.schemaSources ??= {};
  data.schemaSources[connection.id] = { createdAt: connection.created_at, schemas: v.schemas };
  return { status: 200, body: { connection_id: connection.id, tables: Object.values(v.schemas).reduce((n, tables) => n + Object.keys(tables).length, 0) } };
}

function isSource(value: unknown): value is Source {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  return Object.values(value).every(
    (tables) =>
      tables &&
      typeof tables === 'object' &&
      !Array.isArray(tables) &&
      Object.values(tables as object).every((columns) => Array.isArray(columns) && columns.length > 0 && columns.every((c) => typeof c === 'string')),
  );
}

/**
 * Quickstart transformation packages, as getQuickstartPackage and getQuickstartPackages return them.
 */
import * as z from 'zod';

/** A package definition as the API sends it. */
export interface WirePackage {
  id: string;
  name: string;
  version: string;
  connector_types?: string[] | null;
  output_model_names?: string[] | null;
  configurable_variables?: Record<string, { type?: string; description?: string; allowed_values?: string[] | null }> | null;
}

/** One configurable variable of a package. */
export const configurableVariableSchema = z
  .object({
    type: z.string().describe('Value type, e.g. BOOLEAN, STRING or DATE.'),
    description: z.string().describe('What the variable changes.'),
    allowedValues: z.array(z.string()).describe('Values the variable accepts; empty when any value of its type is allowed.'),
  })
  .describe('A variable users can set when they deploy the package.');

/** The fields of a package result. */
export const packageFields = {
  id: z.string().describe('Id of the package definition.'),
  name: z.string().describe('Package name, e.g. salesforce.'),
  version: z.string().describe('Package version.'),
  connectorTypes: z.array(z.string()).describe('Connector services the package transforms.'),
  outputModelNames: z.array(z.string()).describe('Models the package produces.'),
  configurableVariables: z.record(z.string(), configurableVariableSchema).describe('Variable definitions keyed by variable name (names as the package spells them).'),
};

/** A package result object. */
export const packageSchema = z.object(packageFields).describe('A quickstart transformation package.');

/** A package in result form; variable names are package-defined and keep their spelling. */
export function toPackage(wire: WirePackage): z.input<typeof packageSchema> {
  const variables = Object.entries(wire.configurable_variables ?? {}).map(([name, v]) => [name, { type: v.type ?? 'STRING', description: v.description ?? '', allowedValues: v.allowed_values ?? [] }]);
  return {
    id: wire.id,
    name: wire.name,
    version: wire.version,
    connectorTypes: wire.connector_types ?? [],
    outputModelNames: wire.output_model_names ?? [],
    configurableVariables: Object.fromEntries(variables),
  };
}

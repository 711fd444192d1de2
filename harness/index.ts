/**
 * In-process n8n for tests: runs real workflows through n8n-core's WorkflowExecute (and declarative
 * nodes through its RoutingNode) with real HTTP to the sandbox, loading our nodes as listed in
 * package.json: from their sources under jest, from the built `dist/` elsewhere. Nothing of n8n is mocked; only what n8n's server
 * would provide around an execution (credential storage, lifecycle hooks) is supplied here.
 *
 *   runWorkflow({ nodes, connections, credentials })  -> per-node output items and errors
 *   runNode({ type, parameters, credentials, input }) -> one of our nodes fed by fixed items
 *   runAsTool({ type, parameters, credentials, calls }) -> one of our nodes called directly as a tool,
 *                                                       as the MCP Server Trigger calls it
 *   testCredential('adCabinetApi', data)              -> what n8n's "Test credential" reports
 *   loadOptions / listSearch                          -> dropdown and resource-locator lists
 *
 * Outside jest, build first (`npm run build`): the harness then never compiles node sources itself.
 */
export { runWorkflow, nodeTypes } from './run';
export type { WorkflowResult } from './run';
export { runNode } from './node';
export { testCredential } from './credentialTest';
export { loadOptions, listSearch } from './methods';
export { PACKAGE_NAME } from './nodeTypes';
export { listExamples, listExamplesIn, runExample, itemsOf } from './examples';
export type { ExampleWorkflow } from './examples';
export { pollOnce } from './poll';
export { capturedLogs, watchLogs } from './logs';
export { runAsTool } from './tool';

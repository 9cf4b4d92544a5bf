/**
 * Where the test MCP server is bundled (test-server-path.ts): under /var/tmp, which a
 * confined process sees only when it is shown. The harnesses that start the server
 * confined show this folder, as a person adds a place in Settings.
 */
export const TEST_SERVER_FOLDER = '/var/tmp/gatehouse-test-mcp-server';

/** Version of the engine as a whole (SARIF driver version); analyzers carry their own. */
export const ENGINE_VERSION = '1.0.0'

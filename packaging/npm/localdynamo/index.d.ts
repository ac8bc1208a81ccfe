/** Absolute path of the localdynamo binary for this machine; throws where there is none. */
export declare const binaryPath: string;
/** The platform package that carries the binary for a platform and architecture, if any. */
export declare function platformPackage(platform?: string, arch?: string): string | undefined;

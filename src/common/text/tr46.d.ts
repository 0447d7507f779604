/** The part of tr46 (UTS #46: Unicode IDNA Compatibility Processing) this service calls; the package has no types of its own. */
declare module 'tr46' {
  export interface Tr46Options {
    checkBidi?: boolean;
    checkHyphens?: boolean;
    checkJoiners?: boolean;
    ignoreInvalidPunycode?: boolean;
    transitionalProcessing?: boolean;
    useSTD3ASCIIRules?: boolean;
    verifyDNSLength?: boolean;
  }
  /** The domain in ASCII (A-labels, lower case), or null when UTS #46 processing finds an error. */
  export function toASCII(domainName: string, options?: Tr46Options): string | null;
  export function toUnicode(domainName: string, options?: Tr46Options): { domain: string; error: boolean };
}

/**
 * This package's version, as `package.json` says (a test keeps them equal):
 * what a world bundle names, so a replay on another version is checked.
 *
 * @example
 * bundle.version === PACKAGE_VERSION
 */
export const PACKAGE_VERSION = '0.2.0'

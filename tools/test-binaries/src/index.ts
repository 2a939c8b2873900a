export { CHROMIUM_SYSTEM_PACKAGE, type ChromiumSearchPlaces, type FoundChromium, findChromium } from "./find-chromium.js";
export { findPostgresBinaries, POSTGRES_SYSTEM_PACKAGE, type PostgresBinaries, type PostgresSearchPlaces, packagedPostgresDirectory } from "./find-postgres-binaries.js";
export { TestBinaryNotFoundError } from "./test-binary-not-found-error.js";
export { type PrepareOptions, prepareTestBinaries, type TestBinaries } from "./prepare-test-binaries.js";

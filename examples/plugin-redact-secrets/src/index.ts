// ctxpipe-plugin-redact-secrets: keeps API keys, tokens and other secrets out of the requests ctxpipe builds.
export { RedactSecretsPlugin, type RedactSecretsPluginOptions } from "./redact-secrets-plugin.js";
export { BUILT_IN_SECRET_PATTERNS, EMAIL_PATTERN, type SecretPattern } from "./secret-patterns.js";

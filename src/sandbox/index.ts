// The local Slack stand-in: a Web API, signed delivery to the app, and a page that behaves like
// Slack. `startSandboxServer` is the piece the app runs against; `startSandbox` is the whole
// `npm start` experience (embedded service + Bolt app + sandbox), `launchSandbox` the same
// without the console and signal handling (tests).

export type { BlockObj, ElementObj } from './block-kit.js';
export { validateBlocks, validateView } from './block-validation.js';
export type { Container } from './container.js';
export type { RawValue, RawValues } from './element-values.js';
export type { InteractionResult } from './interactions.js';
export { Interactions } from './interactions.js';
export type { AppCommand, AppShortcut, AppSurface } from './manifest.js';
export { appSurfaceFromManifest, DEFAULT_APP_SURFACE, readAppManifest } from './manifest.js';
export type { LogEntry, SandboxMessage, SlackView } from './records.js';
export type { SandboxServer, SandboxServerOptions } from './server.js';
export { startSandboxServer } from './server.js';
export { slackSignature } from './signer.js';
export type { LaunchOptions, SandboxStack } from './start.js';
export { launchSandbox, startSandbox } from './start.js';
export { SandboxState } from './state.js';
export type { SuggestResult } from './suggestions.js';
export type { ApiCall, Fault } from './web-api.js';
export { WebApi } from './web-api.js';
export type { SandboxChannelSpec, SandboxUserSpec } from './workspace.js';
export { DEFAULT_BOT, DEFAULT_CHANNELS, DEFAULT_TEAM, DEFAULT_USERS } from './workspace.js';

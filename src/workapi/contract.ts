/**
 * The work-management interface, written once: zod schemas for every request and response
 * shape of docs/work-management-api.md (the spec) and the table of its 13 operations, in
 * four files — vocabulary.ts (types, formats), requests.ts (bodies and query),
 * responses.ts (answers, read tolerantly or strictly) and operations.ts (the table).
 *
 * The embedded service validates requests with these schemas and routes from the table;
 * WorkClient validates before sending and parses responses with the tolerant schemas;
 * the contract tests check the service's responses with the strict ones.
 */
export * from './operations.js';
export * from './requests.js';
export * from './responses.js';
export * from './vocabulary.js';

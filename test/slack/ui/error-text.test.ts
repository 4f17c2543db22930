/** describeWorkError: one plain sentence per kind of WorkClient failure. */
import { describe, expect, it } from 'vitest';
import { APOLOGY, describeWorkError } from '../../../src/slack/ui/error-text.js';
import { WorkApiError } from '../../../src/workapi/client.js';

const err = (...a: ConstructorParameters<typeof WorkApiError>) => new WorkApiError(...a);

describe('describeWorkError', () => {
  it('quotes the service’s 400 message verbatim and says nothing changed on a write', () => {
    expect(
      describeWorkError(
        err('createTask', 400, 'invalid', 'dueDate: is not a date on the calendar'),
        {
          action: 'create the task',
        },
      ),
    ).toBe(
      'Could not create the task: dueDate: is not a date on the calendar. Nothing was changed.',
    );
  });

  it('quotes a service message as text, never as Slack markup', () => {
    expect(
      describeWorkError(
        err('createTask', 400, 'invalid', 'name: <!channel> see <https://evil.example|here>'),
        { action: 'create the task' },
      ),
    ).toBe(
      'Could not create the task: name: &lt;!channel&gt; see &lt;https://evil.example|here&gt;. Nothing was changed.',
    );
  });

  it('says the key is no longer accepted on 401', () => {
    expect(
      describeWorkError(err('getTask', 401, 'auth', 'unknown key'), { action: 'load the task' }),
    ).toBe(
      'Could not load the task: the work-management service no longer accepts Worklink’s API key. An admin can run `/work connect` with a new key.',
    );
  });

  it('names the id on 404', () => {
    expect(
      describeWorkError(err('getProject', 404, 'not_found', 'not found'), {
        action: 'load the project',
        id: 'abcdef0123456789abcdef01',
      }),
    ).toBe(
      'Could not load the project: there is no project `abcdef0123456789abcdef01` in the connected workspace. Check the id (it is shown on project cards).',
    );
  });

  it('calls the result of a timed-out create unknown and says how to check', () => {
    expect(
      describeWorkError(
        err('createTask', 0, 'timeout', 'The service did not answer within 10 s.'),
        {
          action: 'create the task',
        },
      ),
    ).toBe(
      'Could not create the task: the work-management service did not answer in time. The result is unknown: it may have been created. Check with `/work list` before trying again.',
    );
  });

  it('says nothing changed when a read times out or a write never left', () => {
    expect(describeWorkError(err('listTasks', 0, 'timeout', 't'), { action: 'list tasks' })).toBe(
      'Could not list tasks: the work-management service did not answer in time. Nothing was changed.',
    );
    expect(
      describeWorkError(err('updateTask', 0, 'network', 'ECONNREFUSED', true), {
        action: 'update the task',
      }),
    ).toBe(
      'Could not update the task: the work-management service could not be reached. Nothing was changed.',
    );
  });

  it('handles rate limits and server errors', () => {
    expect(
      describeWorkError(err('listUsers', 429, 'rate_limited', 'slow down'), {
        action: 'list users',
      }),
    ).toBe('Could not list users: the service is busy right now. Please try again in a minute.');
    expect(
      describeWorkError(err('updateProject', 500, 'server', 'Internal error.'), {
        action: 'update the project',
        checkWith: '`/work project abc`',
      }),
    ).toBe(
      'Could not update the project: the service reported a problem (Internal error). The result is unknown. Check with `/work project abc` before trying again.',
    );
  });

  it('says a 404 on create or list means the project or the address, not a missing task', () => {
    expect(
      describeWorkError(err('createTask', 404, 'not_found', 'HTTP 404'), {
        action: 'create the task',
      }),
    ).toBe(
      'Could not create the task: the service does not know this project, or Worklink’s address for the service is wrong (an admin can check WORK_API_URL). Nothing was changed.',
    );
    expect(
      describeWorkError(err('listTasks', 404, 'not_found', 'Cannot GET'), { action: 'list tasks' }),
    ).toBe(
      'Could not list tasks: the service does not know this project, or Worklink’s address for the service is wrong (an admin can check WORK_API_URL).',
    );
  });

  it('escapes the service’s text for Slack', () => {
    expect(
      describeWorkError(
        err('createTask', 400, 'invalid', 'name: <b> & <!channel> are not allowed'),
        {
          action: 'create the task',
        },
      ),
    ).toBe(
      'Could not create the task: name: &lt;b&gt; &amp; &lt;!channel&gt; are not allowed. Nothing was changed.',
    );
  });

  it('apologises for anything that is not a WorkApiError', () => {
    expect(describeWorkError(new TypeError('x is undefined'), { action: 'do it' })).toBe(APOLOGY);
  });
});

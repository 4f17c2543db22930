/**
 * Reading back what a view or button carried (private_metadata, a button's value). It comes
 * back from Slack, so it is read with a zod schema: junk never throws, a field that does not
 * fit reads as absent (`carriedText`), and a value that is not ours reads as undefined.
 *
 *   const meta = readCarried(view.private_metadata, ConnectMeta) ?? {};
 */
import { z } from 'zod';

/** A carried text: a non-empty string, else undefined (never a failure). */
export const carriedText = z.string().min(1).optional().catch(undefined);

/** Where a modal's result is reported: the channel and the response_url it was opened from. */
export const ReplyPlace = z.object({ channelId: carriedText, responseUrl: carriedText });

/** The JSON in `raw`, read with `schema`; undefined when it is not JSON or does not fit. */
export function readCarried<T>(raw: string | undefined, schema: z.ZodType<T>): T | undefined {
  let json: unknown;
  try {
    json = JSON.parse(raw ?? '');
  } catch {
    return undefined;
  }
  const read = schema.safeParse(json);
  return read.success ? read.data : undefined;
}

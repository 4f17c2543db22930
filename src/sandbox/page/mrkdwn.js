// Slack's mrkdwn to safe HTML: *bold*, _italic_, ~strike~, `code`, ```blocks```, > quotes,
// <url|label> links, <@U…> mentions, <#C…> channels, <!here>, <!date^…> dates and :emoji:.
// Everything is escaped first; only the tags produced here reach the page.
// @ts-check

/** @typedef {import('./types.js').MrkdwnContext} MrkdwnContext */

/** @type {Record<string, string>} */
const EMOJI = {
  white_check_mark: '✅',
  heavy_check_mark: '✔️',
  ballot_box_with_check: '☑️',
  x: '❌',
  warning: '⚠️',
  calendar: '📆',
  date: '📅',
  spiral_calendar_pad: '🗓️',
  memo: '📝',
  pencil: '📝',
  pencil2: '✏️',
  clipboard: '📋',
  bust_in_silhouette: '👤',
  busts_in_silhouette: '👥',
  speech_balloon: '💬',
  link: '🔗',
  tada: '🎉',
  wave: '👋',
  bell: '🔔',
  hourglass: '⌛',
  hourglass_flowing_sand: '⏳',
  rocket: '🚀',
  fire: '🔥',
  red_circle: '🔴',
  large_orange_circle: '🟠',
  large_yellow_circle: '🟡',
  large_green_circle: '🟢',
  large_blue_circle: '🔵',
  white_circle: '⚪',
  black_circle: '⚫',
  arrow_right: '➡️',
  arrows_counterclockwise: '🔄',
  mag: '🔍',
  file_folder: '📁',
  open_file_folder: '📂',
  card_index_dividers: '🗂️',
  bookmark_tabs: '📑',
  pushpin: '📌',
  paperclip: '📎',
  label: '🏷️',
  gear: '⚙️',
  lock: '🔒',
  key: '🔑',
  information_source: 'ℹ️',
  question: '❓',
  exclamation: '❗',
  heavy_plus_sign: '➕',
  stopwatch: '⏱️',
  alarm_clock: '⏰',
  chart_with_upwards_trend: '📈',
  bar_chart: '📊',
  office: '🏢',
  house: '🏠',
  star: '⭐',
  eyes: '👀',
  thumbsup: '👍',
  '+1': '👍',
  raised_hands: '🙌',
  no_entry: '⛔',
  no_entry_sign: '🚫',
  zap: '⚡',
  sparkles: '✨',
  construction: '🚧',
  inbox_tray: '📥',
  outbox_tray: '📤',
  envelope: '✉️',
  checkered_flag: '🏁',
};

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** @type {typeof import('./mrkdwn.js').escapeHtml} */
export function escapeHtml(s) {
  return String(s)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** Slack escapes &, < and > in text; undo that before escaping for HTML. */
/** @param {string} s */
function unescapeSlack(s) {
  return s.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

/**
 * :emoji: in text already escaped for HTML (or the name of one emoji, as `:memo:`).
 * @type {typeof import('./mrkdwn.js').emojify}
 */
export function emojify(escaped) {
  return escaped.replace(/:([a-z0-9_+-]+):/g, (m, /** @type {string} */ name) => EMOJI[name] ?? m);
}

/** @param {number} n */
function ordinal(n) {
  const rem100 = n % 100;
  if (rem100 >= 11 && rem100 <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

/**
 * The calendar and clock parts of `date` in zone `tz`.
 * @param {Date} date
 * @param {string} tz
 */
function partsIn(date, tz) {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    weekday: 'long',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
    hour12: true,
  });
  /** @type {Partial<Record<Intl.DateTimeFormatPartTypes, string>>} */
  const out = {};
  for (const p of f.formatToParts(date)) out[p.type] = p.value;
  return {
    year: Number(out.year),
    month: Number(out.month),
    day: Number(out.day),
    weekday: out.weekday,
    time: `${out.hour}:${out.minute} ${out.dayPeriod}`,
    timeSecs: `${out.hour}:${out.minute}:${out.second} ${out.dayPeriod}`,
  };
}

/** @param {{ year: number, month: number, day: number }} p */
function dayNumber(p) {
  return Date.UTC(p.year, p.month - 1, p.day) / 86_400_000;
}

/**
 * Formats `<!date^epoch^format|fallback>` the way Slack does, in the reader's time zone.
 * @type {typeof import('./mrkdwn.js').formatSlackDate}
 */
export function formatSlackDate(epochSeconds, format, tz, now = new Date()) {
  const date = new Date(epochSeconds * 1000);
  if (Number.isNaN(date.getTime())) return null;
  const p = partsIn(date, tz);
  const month = MONTHS[p.month - 1];
  const plain = {
    date_num: `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`,
    date: `${month} ${ordinal(p.day)}, ${p.year}`,
    date_short: `${month.slice(0, 3)} ${p.day}, ${p.year}`,
    date_long: `${p.weekday}, ${month} ${ordinal(p.day)}, ${p.year}`,
    time: p.time,
    time_secs: p.timeSecs,
  };
  const diff = dayNumber(p) - dayNumber(partsIn(now, tz));
  /** @type {Record<string, string>} */
  const relatives = { 0: 'today', '-1': 'yesterday', 1: 'tomorrow' };
  const relative = relatives[String(diff)];
  const pretty = (/** @type {keyof typeof plain} */ key) =>
    relative ? relative[0].toUpperCase() + relative.slice(1) : plain[key];
  /** @type {Record<string, string>} */
  const words = {
    ...plain,
    date_pretty: pretty('date'),
    date_short_pretty: pretty('date_short'),
    date_long_pretty: pretty('date_long'),
    ago: agoText(date, now),
  };
  return format.replace(/\{(\w+)\}/g, (m, /** @type {string} */ key) => words[key] ?? m);
}

/**
 * @param {Date} date
 * @param {Date} now
 */
function agoText(date, now) {
  const seconds = Math.round((now.getTime() - date.getTime()) / 1000);
  const future = seconds < 0;
  const abs = Math.abs(seconds);
  const [n, unit] =
    abs < 60
      ? [abs, 'second']
      : abs < 3600
        ? [Math.round(abs / 60), 'minute']
        : abs < 86_400
          ? [Math.round(abs / 3600), 'hour']
          : [Math.round(abs / 86_400), 'day'];
  const text = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return future ? `in ${text}` : `${text} ago`;
}

/** @param {string} url */
function safeHref(url) {
  return /^(https?:|mailto:)/i.test(url) ? url : null;
}

/** Renders one `<…>` token. */
/**
 * @param {string} inner
 * @param {MrkdwnContext} ctx
 */
function renderToken(inner, ctx) {
  const [target, ...labelParts] = inner.split('|');
  const label = labelParts.join('|');
  if (target.startsWith('@')) {
    const id = target.slice(1);
    const name = ctx.users?.[id] ?? label ?? id;
    return `<span class="mention">@${escapeHtml(name || id)}</span>`;
  }
  if (target.startsWith('#')) {
    const id = target.slice(1);
    const name = ctx.channels?.[id] ?? label ?? id;
    return `<span class="mention">#${escapeHtml(name || id)}</span>`;
  }
  if (target.startsWith('!')) {
    const [kind, ...rest] = target.slice(1).split('^');
    if (kind === 'date') {
      const [epoch, format = '{date}', link] = rest;
      const text = formatSlackDate(Number(epoch), format, ctx.tz ?? 'UTC', ctx.now);
      const shown = escapeHtml(text ?? unescapeSlack(label || epoch));
      const href = link ? safeHref(unescapeSlack(link)) : null;
      return href
        ? `<a href="${escapeHtml(href)}" target="_blank" rel="noopener">${shown}</a>`
        : `<time>${shown}</time>`;
    }
    if (kind === 'subteam') return `<span class="mention">${escapeHtml(label || '@group')}</span>`;
    return `<span class="mention">@${escapeHtml(kind)}</span>`;
  }
  const href = safeHref(unescapeSlack(target));
  if (!href) return escapeHtml(unescapeSlack(inner));
  const text = label ? unescapeSlack(label) : href.replace(/^mailto:/i, '');
  return `<a href="${escapeHtml(href)}" target="_blank" rel="noopener">${formatInline(escapeHtml(text))}</a>`;
}

/** @param {string} escaped */
function formatInline(escaped) {
  // Markers count only at word edges, as in Slack: "2*3*4" stays as typed.
  const start = '(^|[\\s(>;\\uE001])';
  const end = '(?=$|[\\s).,!?:;&<\\uE000])';
  const wrap = (/** @type {string} */ marker) =>
    new RegExp(`${start}\\${marker}(?!\\s)([^${marker}\\n]+?)(?<!\\s)\\${marker}${end}`, 'g');
  return escaped
    .replace(wrap('*'), '$1<b>$2</b>')
    .replace(wrap('_'), '$1<i>$2</i>')
    .replace(wrap('~'), '$1<s>$2</s>');
}

/**
 * mrkdwn → HTML. ctx: { users: {id: name}, channels: {id: name}, tz, now }.
 * Code spans and blocks are kept verbatim; tokens become links, mentions and dates.
 * @type {typeof import('./mrkdwn.js').mrkdwnToHtml}
 */
export function mrkdwnToHtml(text, ctx = {}) {
  /** @type {string[]} */
  const stash = [];
  const keep = (/** @type {string} */ html) => {
    stash.push(html);
    return `\uE000${stash.length - 1}\uE001`;
  };
  // U+E000/U+E001 mark the stash's placeholders below; text that brings its own could make a
  // placeholder land inside an attribute and break out of it, so they never survive input.
  let s = String(text ?? '').replace(/[\uE000\uE001]/g, '');
  s = s.replace(/```([\s\S]*?)```/g, (_m, /** @type {string} */ code) =>
    keep(`<pre>${escapeHtml(unescapeSlack(code.replace(/^\n/, '')))}</pre>`),
  );
  s = s.replace(/`([^`\n]+)`/g, (_m, /** @type {string} */ code) =>
    keep(`<code>${escapeHtml(unescapeSlack(code))}</code>`),
  );
  s = s.replace(/<([^<>\n]+)>/g, (_m, /** @type {string} */ inner) =>
    keep(renderToken(inner, ctx)),
  );
  let html = escapeHtml(unescapeSlack(s));
  html = formatInline(html);
  html = emojify(html);
  html = html
    .split('\n')
    .map((line) => (line.startsWith('&gt; ') || line === '&gt;' ? `<q>${line.slice(5)}</q>` : line))
    .join('\n')
    .replaceAll('\n', '<br>');
  // Stashed pieces may contain other stashed pieces (a formatted link label); resolve repeatedly.
  for (let i = 0; i < 3 && html.includes('\uE000'); i++) {
    html = html.replace(
      /\uE000(\d+)\uE001/g,
      (_m, /** @type {string} */ n) => stash[Number(n)] ?? '',
    );
  }
  return html;
}

/**
 * plain_text objects: escaped, with :emoji: when `emoji` is not false.
 * @type {typeof import('./mrkdwn.js').plainToHtml}
 */
export function plainToHtml(text, emoji = true) {
  const html = escapeHtml(text ?? '').replaceAll('\n', '<br>');
  return emoji ? emojify(html) : html;
}

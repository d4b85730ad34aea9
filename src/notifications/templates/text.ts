import type { NotificationContent, NotificationKind } from '../notification-intent';
import { safeTimeZone } from '../schedule/local-time';
import type { ChannelDisabledContent, Renderable } from './renderable';
import { assertNever } from './renderable';

/** The one sentence that says why this message was sent. */
export function headline(kind: NotificationKind, c: NotificationContent): string {
  switch (kind) {
    case 'game_started':
      return c.yourTurn ? 'The game has started, and you move first.' : 'The game has started.';
    case 'your_turn':
      return c.yourTurn ? 'It is your turn.' : `It is ${waitingFor(c)}'s turn.`;
    case 'reaction_requested':
      return 'You may react now.';
    case 'undo_proposed':
      return 'Your opponent proposes to undo their last action.';
    case 'undo_answered':
      if (c.undoLapsed) return 'Your undo lapsed: your opponent went on without answering it.';
      return c.undoAccepted ? 'Your opponent accepted your undo: your last phase is taken back.' : 'Your opponent declined your undo.';
    case 'deadline_reminder':
      return 'Reminder: the deadline is approaching.';
    case 'deadline_missed':
      if (!c.missed) return 'The deadline has passed.';
      if (c.missed.window === 'reaction') return c.missed.you ? windowClosed(c.missed) : `${c.missed.sides.join(' and ')} let a reaction window close unanswered.`;
      return c.missed.you ? 'You missed the deadline.' : `${c.missed.sides.join(' and ')} missed the deadline.`;
    case 'opponent_resigned':
      return 'Your opponent has resigned.';
    case 'game_ended':
      return c.result ? `The game has ended: ${c.result.winner ? `${c.result.winner} wins` : 'a draw'} (${c.result.reason}).` : 'The game has ended.';
    default:
      return assertNever(kind);
  }
}

/** To the side whose reaction window closed: what answered it (a notice without `applied` predates the distinction). */
function windowClosed(m: NonNullable<NotificationContent['missed']>): string {
  const answer = m.answer ? ` (${m.answer})` : '';
  if (m.applied === 'standing-orders') return `Your reaction window closed unanswered: your standing orders applied${answer}.`;
  if (m.applied === 'none') return `Your reaction window closed unanswered: no standing orders covered it, so no reaction applied${answer}.`;
  return 'Your reaction window closed unanswered: your standing orders, or no reaction, applied.';
}

/** Short state for subjects: "your turn" or "waiting". */
export function status(kind: NotificationKind, c: NotificationContent): string {
  if (kind === 'game_ended' || kind === 'opponent_resigned') return 'game over';
  if (kind === 'undo_proposed') return 'undo proposed';
  if (kind === 'undo_answered') return c.undoLapsed ? (c.yourTurn ? 'your turn' : 'undo lapsed') : c.undoAccepted ? 'undo accepted' : 'undo declined';
  if (kind === 'deadline_reminder') return c.yourTurn ? 'deadline soon' : 'waiting';
  if (kind === 'deadline_missed') return 'deadline passed';
  return c.yourTurn ? 'your turn' : 'waiting';
}

export function subject(kind: NotificationKind, c: NotificationContent): string {
  return `[Fieldpost] ${c.gameTitle}: turn ${c.turn}, ${c.phase} — ${status(kind, c)}`;
}

function waitingFor(c: NotificationContent): string {
  return c.whoseTurn.map((w) => w.playerName ?? w.sideName).join(' and ') || 'the other side';
}

export function whoseTurnLine(c: NotificationContent): string {
  if (c.whoseTurn.length === 0) return c.result ? 'Nobody: the game is over.' : 'Nobody at the moment.';
  const sides = c.whoseTurn.map((w) => (w.playerName ? `${w.sideName} (${w.playerName})` : w.sideName)).join(', ');
  return c.yourTurn ? `${sides}: you.` : sides;
}

const deadlineFormats = new Map<string, Intl.DateTimeFormat>();

/** The deadline as a mail line tells it: in the reader's zone, paused while a vacation holds the clock, or none. */
export function deadlineText(c: Pick<NotificationContent, 'deadlineAt' | 'deadlinePaused'>, timeZone: string): string {
  return formatDeadline(c.deadlineAt, timeZone) ?? (c.deadlinePaused ? PAUSED : 'none');
}

export const PAUSED = 'paused while a player is on vacation';

/** "Tuesday 1 December 2026, 18:00 CET", in the recipient's zone, or null without a deadline. */
export function formatDeadline(iso: string | null, timeZone: string): string | null {
  if (!iso) return null;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  const zone = safeTimeZone(timeZone);
  let f = deadlineFormats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    deadlineFormats.set(zone, f);
  }
  return `${f.format(at)} (${zone})`;
}

/** "your webhook notifications" or "your webhook notifications for <game>", for a turned-off endpoint. */
export function disabledChannel(c: ChannelDisabledContent): string {
  const scope = c.game ? ` for ${c.game.title ?? `game ${c.game.id}`}` : '';
  return `your ${c.channel} notifications${scope}`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

/** Only absolute http(s) links go into a message; anything else is dropped, not rendered. */
export function safeLink(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : null;
  } catch {
    return null;
  }
}

/** C0/C1 controls (CR, LF, NEL, ...) and Unicode's own line and paragraph separators. */
const BREAKS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
/** Explicit bidi embeddings, overrides and isolates; the letters' own direction is left alone. */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

/**
 * Game titles and names are written by players and shown to their opponents. A line break
 * would let one forge lines of the message around it ("Act now: <another link>"), and an
 * unclosed bidi override would turn around the words after it, in a subject too.
 */
export function inline(text: string): string {
  return text.replace(BIDI_CONTROLS, '').replace(BREAKS, ' ');
}

function inlineContent(c: NotificationContent): NotificationContent {
  return {
    ...c,
    gameTitle: inline(c.gameTitle),
    scenarioName: inline(c.scenarioName),
    phase: inline(c.phase),
    whoseTurn: c.whoseTurn.map((w) => ({ ...w, sideName: inline(w.sideName), playerName: w.playerName === null ? null : inline(w.playerName) })),
    happened: c.happened.map(inline),
    ...(c.missed ? { missed: { ...c.missed, sides: c.missed.sides.map(inline), ...(c.missed.answer === undefined ? {} : { answer: inline(c.missed.answer) }) } } : {}),
    ...(c.result ? { result: { winner: c.result.winner === null ? null : inline(c.result.winner), reason: inline(c.result.reason) } } : {}),
  };
}

/** The notification as mail and Discord show it: every text it carries on one line. */
export function forReaders<R extends Renderable>(n: R): R {
  switch (n.kind) {
    case 'channel_disabled': {
      const c = n.content as ChannelDisabledContent;
      return { ...n, content: { ...c, reason: inline(c.reason), ...(c.game ? { game: { ...c.game, title: c.game.title === null ? null : inline(c.game.title) } } : {}) } };
    }
    case 'digest': {
      const d = n as Extract<Renderable, { kind: 'digest' }>;
      return { ...n, items: d.items.map((i) => ({ ...i, content: inlineContent(i.content) })) };
    }
    default:
      return { ...n, content: inlineContent(n.content as NotificationContent) };
  }
}

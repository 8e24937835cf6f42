import type { Logger } from '../log.js';
import { localeOf, type BeaconBinder, type Bindable, type Resumed } from './beacon-binding.js';
import type { ChannelPost } from './late-delivery.js';
import type { MessageLinks } from './message-links.js';
import { speak } from '../i18n/speak.js';
import { said } from '../i18n/said.js';

/**
 * Beacon rolls a stopped process left bound: each is rolled now that its round is out, or expired
 * on the record (past its ten minutes: never rolled late), and its result posted to its channel
 * naming its roller, since the interaction that asked is gone with the process. A tournament
 * game's binding never expires: the channel is told it still waits, then its result when it comes.
 * Each is posted as it settles (one waiting long holds back no other). Returns how many results were posted.
 */
export async function resumeBindings<R extends Bindable>(
  binder: BeaconBinder<R>,
  post: ChannelPost,
  links: Pick<MessageLinks, 'shown'>,
  log: Logger,
): Promise<number> {
  const posted = await Promise.all((await binder.resume()).map((r) => postResumed(r, post, links, log)));
  return posted.filter(Boolean).length;
}

/** One resumed binding's posts: that it still waits (a tournament game's), then its result. */
async function postResumed({ binding, reply: settling }: Resumed, post: ChannelPost, links: Pick<MessageLinks, 'shown'>, log: Logger): Promise<boolean> {
  const mention = binding.user_id;
  // In the roller's language: the post names them, as the reply they did not get would have.
  const values = { user: mention, round: String(binding.round) };
  const notice = (content: string, description: string) =>
    post(binding.guild_id, binding.channel_id, { content, embed: { description }, buttons: [], mention });
  try {
    if (binding.tournament) {
      const waiting = speak(localeOf(binding), said('beacon.stillWaiting', values));
      await notice(waiting, waiting);
    }
    const reply = await settling;
    if (reply.type === 'message' || reply.type === 'update') {
      const content = speak(localeOf(binding), said('beacon.resumed', values));
      const messageId = await post(binding.guild_id, binding.channel_id, { content, embed: reply.embed, buttons: reply.buttons, mention });
      if (reply.record) links.shown(reply.record.roll_id, messageId);
    } else if (reply.type === 'error') {
      await notice(speak(localeOf(binding), said('beacon.resumedNot', { ...values, why: reply.message })), reply.message);
    } else return false;
    return true;
  } catch (err) {
    log.warn('could not post a resumed beacon roll to its channel', { interaction: binding.interaction_id, err });
    return false;
  }
}

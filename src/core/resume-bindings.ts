import type { Logger } from '../log.js';
import { localeOf, type BeaconBinder, type Bindable } from './beacon-binding.js';
import type { ChannelPost } from './late-delivery.js';
import type { MessageLinks } from './message-links.js';
import { speak } from '../i18n/speak.js';
import { said } from '../i18n/said.js';

/**
 * Beacon rolls a stopped process left bound (issue 45): each is rolled now that its round is out
 * (or expired, past ten minutes), and its result posted to its channel naming its roller, since
 * the interaction that asked is gone with the process. Returns how many were posted.
 */
export async function resumeBindings<R extends Bindable>(
  binder: BeaconBinder<R>,
  post: ChannelPost,
  links: Pick<MessageLinks, 'shown'>,
  log: Logger,
): Promise<number> {
  let posted = 0;
  for (const { binding, reply } of await binder.resume()) {
    const mention = binding.user_id;
    // In the roller's language: the post names them, as the reply they did not get would have.
    const values = { user: mention, round: String(binding.round) };
    try {
      if (reply.type === 'message' || reply.type === 'update') {
        const content = speak(localeOf(binding), said('beacon.resumed', values));
        const messageId = await post(binding.guild_id, binding.channel_id, { content, embed: reply.embed, buttons: reply.buttons, mention });
        if (reply.record) links.shown(reply.record.roll_id, messageId);
      } else if (reply.type === 'error') {
        const content = speak(localeOf(binding), said('beacon.resumedNot', { ...values, why: reply.message }));
        await post(binding.guild_id, binding.channel_id, { content, embed: { description: reply.message }, buttons: [], mention });
      }
      posted++;
    } catch (err) {
      log.warn('could not post a resumed beacon roll to its channel', { interaction: binding.interaction_id, err });
    }
  }
  return posted;
}

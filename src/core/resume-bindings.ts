import type { Logger } from '../log.js';
import type { BeaconBinder, Bindable } from './beacon-binding.js';
import type { ChannelPost } from './late-delivery.js';
import type { MessageLinks } from './message-links.js';

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
    try {
      if (reply.type === 'message' || reply.type === 'update') {
        const content = `<@${mention}>: your roll bound to beacon round ${binding.round} is rolled (the bot restarted before it could answer).`;
        const messageId = await post(binding.guild_id, binding.channel_id, { content, embed: reply.embed, buttons: reply.buttons, mention });
        if (reply.record) links.shown(reply.record.roll_id, messageId);
      } else if (reply.type === 'error') {
        const content = `<@${mention}>: your roll bound to beacon round ${binding.round} was not rolled. ${reply.message}`;
        await post(binding.guild_id, binding.channel_id, { content, embed: { description: reply.message }, buttons: [], mention });
      }
      posted++;
    } catch (err) {
      log.warn('could not post a resumed beacon roll to its channel', { interaction: binding.interaction_id, err });
    }
  }
  return posted;
}

/**
 * The declined-ad recipe: moderation declines an ad of the sandbox (with reasons) and puts another
 * on hold; a run of the recipe from its Ads Trigger (as Fetch Test Event runs it) sends one HTML
 * message per ad the trigger gave, and the declined ad's names its title, campaign, new status and
 * each reason.
 */
import { strict as assert } from 'node:assert';
import type { Sandbox } from '../../sandbox';
import { setAdStatus } from '../../sandbox/handlers/adStatusControl';
import type { Checks } from '../lib/checks';
import { escapeHtml, REASONS } from '../lib/telegramExpectations';
import { itemsOf, type RunData } from '../lib/workflows';
import type { TelegramStandIn } from './telegramStandIn';
import type { RecipeFlow } from './workflows';

export async function declinedChecks(
	checks: Checks,
	run: (flow: RecipeFlow) => Promise<RunData>,
	flow: RecipeFlow,
	sandbox: Sandbox,
	standIn: TelegramStandIn,
): Promise<void> {
	console.log('\n▶ Declined ad');
	const [declined, held] = sandbox.data.ads.filter((ad) => ad.status === 'active');
	assert.ok(declined && held, 'the sandbox has fewer than two active ads');
	setAdStatus(sandbox.data, String(declined.id), { status: 'declined', decline_reason: REASONS });
	setAdStatus(sandbox.data, String(held.id), { status: 'on_hold' });
	const before = standIn.calls.length;
	const result = await run(flow);
	const calls = standIn.calls.slice(before);
	const emitted = (itemsOf(result, flow.trigger.name) ?? []).map((i) => i.json);
	console.log(
		`  ad ${declined.id} declined, ad ${held.id} on hold; the trigger gave ${emitted.length} ads (${emitted.map((e) => `${String(e.ad_id)} ${String(e.status)}`).join(', ')}); the stand-in received ${calls.length} sendMessage`,
	);
	const ours = calls.find((c) => c.fields.text?.includes(`(ad ${declined.id})`));
	if (ours) console.log(`  sent to ${ours.fields.chat_id}: ${JSON.stringify(ours.fields.text)}`);
	await checks.check(
		'declined ad: one message per ad the trigger gave, to the chat, Parse Mode HTML, each naming its ad',
		() => {
			assert.ok(emitted.some((e) => e.ad_id === declined.id && e.status === 'declined'));
			assert.ok(emitted.some((e) => e.ad_id === held.id && e.status === 'on_hold'));
			assert.deepEqual(
				calls.map((c) => [c.method, c.status, c.fields.chat_id, c.fields.parse_mode]),
				emitted.map(() => ['sendMessage', 200, flow.chatId, 'HTML']),
			);
			assert.deepEqual(
				calls.map((c) => /\(ad (\d+)\)/.exec(c.fields.text ?? '')?.[1]),
				emitted.map((e) => String(e.ad_id)),
			);
		},
	);
	await checks.check(
		"declined ad: the message gives the ad's title, campaign, new status and each reason, escaped for HTML",
		() => {
			const item = emitted.find((e) => e.ad_id === declined.id);
			const lines = (ours?.fields.text ?? '').split('\n');
			assert.deepEqual(lines, [
				`<b>Ad declined</b>: ${escapeHtml(String(item?.title))} (ad ${declined.id})`,
				`Campaign: ${escapeHtml(String(item?.campaign_name))}`,
				`Status: ${item?.previous_status ? `${String(item.previous_status)} → ` : ''}declined`,
				'Reasons:',
				...REASONS.map((r) => `• ${escapeHtml(r.reason)}`),
			]);
		},
	);
}

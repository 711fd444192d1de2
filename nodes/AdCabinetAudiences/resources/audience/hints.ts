import { cabinetAccessHint } from '../../../shared/transport/nodeErrors';
import type { Failure } from '../../../shared/transport/apiFailure';

/** Node versions whose Cabinet ID is typed in; from 1.2 it is picked from the list or typed. */
export const AUDIENCE_CABINET_TYPED_IN = [1, 1.1];

/** Audiences exist only for cabinets whose geolocation is Uzbekistan. */
export function audienceHint(accountId: string) {
	return (failure: Failure): string | undefined => {
		switch (failure.status) {
			case 403:
				return cabinetAccessHint(
					`cabinet ${accountId}`,
					'the Cabinet ID',
					', or the cabinet cannot use audiences: phone-number audiences are available only for cabinets whose geolocation is Uzbekistan',
				);
			case 404:
				return `Cabinet ${accountId} was not found. Check the Cabinet ID.`;
			case 400:
			case 422:
				return `Phone-number audiences are available only for cabinets whose geolocation is Uzbekistan; if cabinet ${accountId} is one, fix what the API names.`;
			default:
				return undefined;
		}
	};
}

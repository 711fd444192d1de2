import { shownFieldName } from '../shared/platform';

/** What an AI agent is told about each Pixel Events operation (see shared/toolDescription.ts). */
export const PIXEL_EVENT_TOOL_TEXTS = {
	getAll: `List a cabinet's pixel tag events: one item per event with id, the platform's event id ${shownFieldName('eventId')}, title, type, status and the number of ads using it (the code snippet too when Simplify is off). The id is the Event the rename and delete tools need; an ad's Pixel Event takes the ${shownFieldName('eventId')} instead. Without Return All at most Limit events come back.`,
	getTypes:
		'The event types a pixel event can have (for example page_view, purchase, custom), one item each. Only reads.',
	getBaseCode:
		"The cabinet's pixel ID and the base script to put on every page of the site, as one item. Only reads, so repeating is safe.",
	create:
		'Add a tag event to the cabinet\'s pixel with a Title and a Type (from "Get the pixel event types") and return it with its id and code snippet. Each successful call adds another event; a refused call changed nothing. Set Dry Run to see the exact request without sending it.',
	rename:
		'Give a pixel event a new title, by its Event id ("Get many pixel events" lists them). Repeating is safe. Set Dry Run to see the exact request without sending it.',
	delete:
		'Delete a pixel event by its Event id ("Get many pixel events" lists them). Deleting one that is already gone fails with not found. Set Dry Run to see the exact request without sending it.',
};

import { NodeOperationError } from 'n8n-workflow';
import {
	connectionWords,
	withoutRewrittenCodes,
} from '../../../../nodes/shared/transport/connectionWords';

const node = {
	id: 'n',
	name: 'Report',
	type: 'n8n-nodes-base.stopAndError',
	typeVersion: 1,
	position: [0, 0] as [number, number],
	parameters: {},
};

describe('connectionWords: a failed connection in words n8n keeps as written', () => {
	test('a known code reads as what happened, without the code', () => {
		expect(connectionWords({ code: 'ECONNRESET', message: 'read ECONNRESET' })).toBe(
			'the connection was reset before the answer arrived',
		);
		expect(connectionWords({ code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND x' })).toBe(
			'the host name was not found',
		);
	});

	test('an unknown code stays, with its message; a code n8n rewrites is taken out of the message', () => {
		expect(connectionWords({ code: 'ERR_SOCKET_CLOSED', message: 'Socket is closed' })).toBe(
			'ERR_SOCKET_CLOSED: Socket is closed',
		);
		expect(connectionWords({ message: 'connect EACCES 127.0.0.1:9' })).toBe('connect 127.0.0.1:9');
		expect(connectionWords({})).toBeUndefined();
		expect(withoutRewrittenCodes('read ECONNRESET (ETIMEDOUT).')).toBe('read.');
	});

	test('a message built from the words survives being wrapped again by n8n (as a Stop and Error node does)', () => {
		const words = `The update failed: ${connectionWords({ code: 'ECONNRESET', message: 'read ECONNRESET' })}.`;
		expect(new NodeOperationError(node, words).message).toBe(words);
		// The same sentence with the code in it is replaced whole by n8n's generic one.
		const withCode = 'The update failed: read ECONNRESET.';
		expect(new NodeOperationError(node, withCode).message).not.toBe(withCode);
	});
});

import type { IDataObject } from 'n8n-workflow';
import type { Order } from './scheduler';

/**
 * The API's ads as the runs of a scenario reach them: the list and a create are steps on the ad
 * list, a read and a change of one ad steps on that ad. What each run sent is kept.
 */
export class AdsOnOrder {
	readonly ads: IDataObject[] = [];
	readonly creates: Array<{ run: number; id: number }> = [];
	readonly puts: Array<{ run: number; cpm: number }> = [];
	private nextId = 1000;

	constructor(private readonly order: Order) {}

	async list(run: number, filter: { period?: string; title?: string }): Promise<IDataObject[]> {
		await this.order.step(run, { resource: 'ad list', write: false, label: 'list ads' });
		return this.ads
			.filter((ad) => filter.title === undefined || ad.advertisement_title === filter.title)
			.map((ad) => ({ ...ad }));
	}

	async create(run: number, body: IDataObject): Promise<number> {
		await this.order.step(run, { resource: 'ad list', write: true, label: 'create ad' });
		const id = this.nextId++;
		this.ads.push({
			id,
			campaign_id: body.campaign_id,
			advertisement_title: body.title,
			promote_url: body.promote_url,
			text: body.text,
			status: 'active',
			created_dt: '07.12.2026 12:00:00',
			cpm: body.cpm,
		});
		this.creates.push({ run, id });
		return id;
	}

	/** The detail of an ad made: what a create set never changes, so reading it is no step. */
	detail(id: string): IDataObject {
		const ad = this.ads.find((entry) => String(entry.id) === id);
		if (!ad) throw new Error(`no ad ${id}`);
		return { ...ad };
	}

	async readCpm(run: number, id: number): Promise<number> {
		await this.order.step(run, { resource: `ad ${id}`, write: false, label: 'read ad' });
		return this.ads.find((ad) => ad.id === id)?.cpm as number;
	}

	async putCpm(run: number, id: number, cpm: number): Promise<void> {
		await this.order.step(run, { resource: `ad ${id}`, write: true, label: `PUT cpm ${cpm}` });
		const ad = this.ads.find((entry) => entry.id === id);
		if (ad) ad.cpm = cpm;
		this.puts.push({ run, cpm });
	}
}

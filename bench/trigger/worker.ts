import { serve } from '../lib/rpc';
import { purePolls, type PureArgs } from './pure';
import { realPolls, type RealArgs } from './real';

serve({
	pure: (args) => purePolls(args as PureArgs),
	real: (args) => realPolls(args as RealArgs),
});

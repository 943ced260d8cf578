import { createSession } from '@skilltree/core';
import { TravelAgent, trip } from './travel-agent.js';

const session = createSession(<TravelAgent />);
const flightsText = () => session.request().context.match(/Flight searches: \d+/)?.[0];

await session.readSkill('flights');
await session.callTool({ id: 'c1', name: 'search_flights', input: { to: 'Oslo' } });
await session.callTool({ id: 'c2', name: 'book_flight', input: { flight: 'LH179' } });
console.log(flightsText(), '| bookings:', session.store(trip).getState().bookings);

// Two newer reads push `flights` out (maxLoadedSkills is 2): its component unmounts.
await session.readSkill('hotels');
await session.readSkill('billing');
console.log('loaded:', session.loadedSkills, '| flights in context:', flightsText() ?? 'no');

// Reading it again mounts it fresh: useState starts over, the store kept its state.
await session.readSkill('flights');
console.log(flightsText(), '| bookings:', session.store(trip).getState().bookings);

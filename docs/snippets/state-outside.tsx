import { createSession, scriptedModel, textOf } from '@skilltree/core';
import { TravelAgent, trip } from './travel-agent.js';

const session = createSession(<TravelAgent />, { model: scriptedModel([{ text: 'You have LH179 and LH182.' }]) });

// Changes made from your own code: a read, and a store update (say, from a webhook).
await session.readSkill('hotels');
session.store(trip).setState({ bookings: ['LH179', 'LH182'] });

// They are recorded with the next message the transcript gets, after its text.
await session.send('What have I booked?');
console.log(textOf(session.transcript[0]));

import { Agent, createAgentStore, Instructions, Skill, Text, Tool, useAgentStore } from '@skilltree/core';
import { useState } from 'react';
import { z } from 'zod';

/** Lives per session, outside the tree: survives unloads, shared by every skill. */
export const trip = createAgentStore('trip', () => ({ bookings: [] as string[] }));

function Flights() {
  const [searches, setSearches] = useState(0); // gone when the skill unloads
  return (
    <>
      <Instructions>Search before you book. Quote prices in EUR.</Instructions>
      <Text>Flight searches: {searches}</Text>
      <Tool
        name="search_flights"
        description="Find flights to a city"
        input={z.object({ to: z.string() })}
        run={({ to }) => {
          setSearches((n) => n + 1);
          return `LH${100 + to.charCodeAt(0)} to ${to}: 180 EUR`;
        }}
      />
      <Tool
        name="book_flight"
        description="Book a flight by its number"
        input={z.object({ flight: z.string() })}
        run={({ flight }, ctx) => {
          trip.of(ctx).setState((s) => ({ bookings: [...s.bookings, flight] }));
          return `Booked ${flight}.`;
        }}
      />
    </>
  );
}

function Hotels() {
  const bookings = useAgentStore(trip, (s) => s.bookings);
  return (
    <>
      <Instructions>Offer hotels near the arrival airport.</Instructions>
      <Text>Booked so far: {bookings.join(', ') || 'nothing'}</Text>
      <Tool
        name="search_hotels"
        description="Find hotels in a city"
        input={z.object({ city: z.string() })}
        run={({ city }) => `Hotel Nord, ${city}: 95 EUR a night`}
      />
    </>
  );
}

function Billing() {
  const bookings = useAgentStore(trip, (s) => s.bookings);
  return (
    <>
      <Instructions>Take payment only after the customer confirms.</Instructions>
      {bookings.length > 0 && (
        <Tool
          name="pay"
          description="Charge the customer for every booking"
          run={() => `Paid for ${bookings.length}.`}
        />
      )}
    </>
  );
}

export const TravelAgent = () => (
  <Agent maxLoadedSkills={2}>
    <Instructions>You are a travel agent.</Instructions>
    <Text>Customer: Ada (gold member)</Text>
    <Skill name="flights" description="Search and book flights">
      <Flights />
    </Skill>
    <Skill name="hotels" description="Search hotels">
      <Hotels />
    </Skill>
    <Skill name="billing" description="Take payment">
      <Billing />
    </Skill>
  </Agent>
);

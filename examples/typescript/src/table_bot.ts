// A bot written against Chronicle's OpenAPI document alone (openapi-typescript's types,
// openapi-fetch's calls): for each game named it becomes a player, opens a private table
// against server-side bots and plays its seat from its notification stream, followed live:
// one `GET /players/me/stream?format=ndjson` held open for the whole game, each line the spec's
// `NotificationStreamLine`, told apart by its `kind` (the discriminator) and nothing else. Each
// `your_turn` names the game, and the bot posts one of its legal actions there; it stops at
// that game's `game_finished`. A stream that is cut, ends, says `error` or stays silent past
// two keep-alives is followed again with `Last-Event-ID` from the last id read: a reconnect,
// counted. The games are played at once.
//
//     node dist/table_bot.js http://127.0.0.1:8000 hotw-2024 brief-2009 ...
//
// (`SCRIPT=table_bot examples/typescript/run.sh URL game ...` generates, compiles and runs it.)
// Prints one JSON line per game: its result, moves, reconnects, every answer's status, the
// stream's lines by kind.

import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./api.js";
import { talliedFetch } from "./polite.js";

type Schemas = components["schemas"];
type StreamLine = Schemas["NotificationStreamLine"];
type Notice = Exclude<StreamLine, Schemas["StreamOpening"] | Schemas["StreamHeartbeat"] | Schemas["StreamError"]>;
type Api = Client<paths>;

const GAMES = ["hotw-2024", "hotw-ah2001", "hotw-ah2001+simultaneous", "brief-2009", "patchistory"];
const HEARTBEAT_MS = 15_000; // the keep-alive interval the spec states
const DEADLINE_MS = 600_000;

function newTable(game: string, me: string): Schemas["CreateTable"] {
  const listing = "private";
  const bots = "random";
  switch (game) {
    case "hotw-2024":
      return { ruleset: "hotw-2024", players: [me, "Seat 2", "Seat 3"], listing, seat: 0, bots };
    case "hotw-ah2001":
      return { ruleset: "hotw-ah2001", players: [me, "Seat 2", "Seat 3"], listing, seat: 0, bots };
    case "hotw-ah2001+simultaneous":
      return {
        ruleset: "hotw-ah2001",
        players: [me, "Seat 2", "Seat 3"],
        listing,
        seat: 0,
        bots,
        options: { simultaneous_empires: true },
      };
    case "brief-2009":
      return { ruleset: "brief-2009", players: [me, "Seat 2"], listing, seat: 0, bots };
    case "patchistory":
      return { ruleset: "patchistory", players: [me, "Seat 2"], listing, seat: 0, bots };
    default:
      throw new Error(`unknown game ${game}: one of ${GAMES.join(", ")}`);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class Tally {
  statuses = new Map<number, number>();
  lines = new Map<string, number>();
  reconnects: string[] = [];
  line(kind: StreamLine["kind"]): void {
    this.lines.set(kind, (this.lines.get(kind) ?? 0) + 1);
  }
}

/** Each line of an NDJSON body as it comes (the format's framing: a document a line). */
async function* linesOf(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffered += decoder.decode(value, { stream: true });
      for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        if (line.trim() !== "") yield line;
      }
    }
  } finally {
    await reader.cancel(); // the caller stopped reading: close the stream and its connection
  }
}

/** Each notification of the player's stream as it comes, for as long as the caller reads;
 * where the stream is cut, followed again after the last id read. */
async function* notices(me: Api, tally: Tally): AsyncGenerator<Notice> {
  let resume: string | undefined;
  for (;;) {
    const silence = new AbortController();
    let watchdog = setTimeout(() => silence.abort(), 2 * HEARTBEAT_MS);
    try {
      const { response } = await me.GET("/players/me/stream", {
        params: {
          query: { format: "ndjson" },
          header: resume === undefined ? {} : { "Last-Event-ID": resume },
        },
        parseAs: "stream",
        signal: silence.signal,
      });
      if (!response.ok || response.body === null) throw new Error(`stream: ${response.status}`);
      for await (const text of linesOf(response.body)) {
        clearTimeout(watchdog);
        watchdog = setTimeout(() => silence.abort(), 2 * HEARTBEAT_MS);
        const line: StreamLine = JSON.parse(text);
        tally.line(line.kind);
        switch (line.kind) {
          case "opening":
            resume ??= line.id;
            break;
          case "heartbeat":
            break;
          case "error":
            tally.reconnects.push(`error line: ${line.error.code}`);
            await sleep(line.retry_ms ?? 1000);
            throw new Error("the stream said error");
          case "your_turn":
          case "game_started":
          case "game_finished":
          case "invitation":
            resume = line.id ?? resume;
            yield line;
            break;
          default: {
            const unknown: never = line; // every kind the spec names is handled above
            throw new Error(`a line of no kind the spec names: ${JSON.stringify(unknown)}`);
          }
        }
      }
      tally.reconnects.push("the stream ended");
    } catch (error) {
      if (error instanceof Error && error.message.startsWith("a line of no kind")) throw error;
      if (!(error instanceof Error && error.message === "the stream said error")) {
        tally.reconnects.push(`cut: ${String(error)}`);
      }
    } finally {
      clearTimeout(watchdog);
      silence.abort(); // the caller stopped reading, or the stream is done with: close it
    }
  }
}

/** Play the seat's commands while the game waits for it; how many were played. */
async function playMyTurn(me: Api, gameId: string, deadline: number): Promise<number> {
  const path = { game_id: gameId };
  let played = 0;
  while (Date.now() < deadline) {
    const { data: listed } = await me.GET("/games/{game_id}/legal-actions", { params: { path } });
    if (listed === undefined || !listed.your_turn) return played; // the turn passed
    const action = listed.actions[Math.floor(Math.random() * listed.actions.length)];
    if (action === undefined) {
      await sleep(200); // a step of the game's own runs first
      continue;
    }
    const posted = await me.POST("/games/{game_id}/commands", { params: { path }, body: action });
    if (posted.data !== undefined) played += 1;
    else await sleep(Number(posted.response.headers.get("Retry-After") ?? "0.2") * 1000);
  }
  return played;
}

async function play(baseUrl: string, game: string) {
  const tally = new Tally();
  const fetch = talliedFetch(tally.statuses);
  const api = createClient<paths>({ baseUrl, fetch });
  const { data: player } = await api.POST("/players", { body: { name: "Stream bot" } });
  if (player === undefined) throw new Error(`${game}: no player`);
  const me = createClient<paths>({
    baseUrl,
    fetch,
    headers: { Authorization: `Bearer ${player.player_key}` },
  });
  const { data: table, error } = await me.POST("/tables", { body: newTable(game, "Stream bot") });
  if (table === undefined) throw new Error(`${game}: no table: ${JSON.stringify(error)}`);
  const gameId = table.game_id;
  const kinds = new Map<string, number>();
  let moves = 0;
  const deadline = Date.now() + DEADLINE_MS;
  for await (const notice of notices(me, tally)) {
    kinds.set(notice.kind, (kinds.get(notice.kind) ?? 0) + 1);
    if (Date.now() > deadline) throw new Error(`${game}: not finished after ${moves} moves`);
    if (notice.game_id !== gameId) continue;
    if (notice.kind === "your_turn") moves += await playMyTurn(me, gameId, deadline);
    if (notice.kind === "game_finished") break;
  }
  const path = { game_id: gameId };
  const { data: summary } = await me.GET("/games/{game_id}", { params: { path } });
  const { data: result } = await me.GET("/games/{game_id}/result", { params: { path } });
  return {
    game,
    game_id: gameId,
    finished: summary?.status === "finished",
    moves,
    notifications: Object.fromEntries(kinds),
    ranking: result?.ranking.map((standing) => standing.seat) ?? [],
    reconnects: tally.reconnects.length,
    cuts: tally.reconnects.slice(0, 10),
    statuses: Object.fromEntries(tally.statuses),
    lines: Object.fromEntries(tally.lines),
  };
}

async function main(argv: string[]): Promise<number> {
  const [url, ...asked] = argv;
  if (url === undefined) {
    console.error(`usage: node dist/table_bot.js URL [game ...]   (games: ${GAMES.join(", ")})`);
    return 2;
  }
  const games = asked.length > 0 ? asked : GAMES;
  const played = games.map((game) =>
    play(url.replace(/\/$/, ""), game).then((report) => console.log(JSON.stringify(report))),
  );
  await Promise.all(played);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));

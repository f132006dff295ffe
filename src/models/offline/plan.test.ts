import { describe, expect, it } from "vitest";
import type { EvidenceItem } from "../../spec/answer.js";
import type { CallRecord, EngineContext } from "../../spec/engine.js";
import { passageKey } from "../../spec/passage.js";
import { evidence, makeState, searchRecord } from "../__fixtures__/state.js";
import { decompose } from "./analyze.js";
import {
  aboutQuestion,
  anchored,
  hopWords,
  lookupCalls,
  planCalls,
  searchableWords,
  searchedUnfound,
  unfoundAnchors,
} from "./plan.js";
import { OFFLINE_PRESETS } from "./settings.js";

const ctx: EngineContext = { signal: new AbortController().signal, probe: async () => [] };

describe("planCalls, first round", () => {
  it("searches the part's best source and, with several sources, all of them at once", async () => {
    const state = makeState();
    const plan = await planCalls(state, ctx, decompose(state.standaloneQuestion), OFFLINE_PRESETS.balanced);
    const searches = plan.calls.filter((c) => c.tool === "search");
    expect(searches.some((c) => c.args.corpus !== undefined)).toBe(true);
    expect(searches.filter((c) => c.args.corpus === undefined)).toEqual([
      expect.objectContaining({ args: expect.objectContaining({ k: OFFLINE_PRESETS.balanced.retrieval.broadK }) }),
    ]);
  });

  it("makes no search over all sources when there is only one, or when broadK is 0", async () => {
    const one = makeState();
    one.sources = one.sources.slice(0, 1);
    const parts = decompose(one.standaloneQuestion);
    const single = await planCalls(one, ctx, parts, OFFLINE_PRESETS.balanced);
    expect(single.calls.every((c) => c.args.corpus !== undefined)).toBe(true);
    const off = { ...OFFLINE_PRESETS.balanced, retrieval: { ...OFFLINE_PRESETS.balanced.retrieval, broadK: 0 } };
    const none = await planCalls(makeState(), ctx, parts, off);
    expect(none.calls.every((c) => c.args.corpus !== undefined)).toBe(true);
  });
});

describe("anchored", () => {
  const rows = [
    { text: "shipment_id: KF-000113\norigin_hub: GDN" },
    { text: "shipment_id: KF-000388\norigin_hub: HAM" },
  ];

  it("starts a hop only from passages naming the question's entity, when some do", () => {
    expect(anchored({ entities: ["KF-000388"] }, rows)).toEqual({ passages: [rows[1]], named: true });
  });

  it("keeps every passage when none names it, or the part names nothing", () => {
    expect(anchored({ entities: ["KF-000999"] }, rows)).toEqual({ passages: rows, named: false });
    expect(anchored({ entities: [] }, rows)).toEqual({ passages: rows, named: false });
  });

  it("is not narrowed by a plain name, which many pages mention", () => {
    const pages = [{ text: "Karel Purkyně died in Prague." }, { text: "The clock of Prague was built in 1410." }];
    expect(anchored({ entities: ["Karel Purkyně"] }, pages)).toEqual({ passages: pages, named: false });
  });
});

describe("searchableWords", () => {
  it("keeps the segmenter's words of Japanese text, not its character bigrams or lone kana", () => {
    const text = "ラベルの取り違えが見つかった出荷";
    const kept = searchableWords(["ラベル", "取り違え", "出荷", "でラ", "ベル", "つ", "nm", "26"], text);
    expect(kept).toContain("ラベル");
    expect(kept).toContain("出荷");
    expect(kept).not.toContain("ベル");
    expect(kept).not.toContain("つ");
    expect(kept).toEqual(expect.arrayContaining(["nm", "26"]));
  });
});

describe("unfoundAnchors", () => {
  const part = { entities: ["Lindau", "Harbor Review"] };
  it("names what the question gives that nothing found mentions and no search started with", () => {
    expect(unfoundAnchors(part, ["Lindau is a town on Lake Constance."], ["Where is Lindau"])).toEqual([
      "Harbor Review",
    ]);
  });
  it("drops a name once a search started with it, so the loop does not repeat that search", () => {
    expect(unfoundAnchors(part, [], ["Harbor Review founded", "lindau town"])).toEqual([]);
  });
});

describe("aboutQuestion", () => {
  it("tells a passage naming the question's entity from one that only shares its words", () => {
    const part = { entities: ["Philbrook Museum"] };
    expect(aboutQuestion(part, { title: "Tulsa", text: "The Philbrook Museum of Art is in Tulsa." })).toBe(true);
    expect(aboutQuestion(part, { title: "Cebu", text: "The cathedral museum of the city is located in Cebu." })).toBe(
      false,
    );
  });
});

describe("hopWords", () => {
  const on = OFFLINE_PRESETS.balanced;
  const off = { hop: { ...on.hop, headQuery: false } };
  it("puts what a chain asks of the bridge before the words still missing", () => {
    const part = decompose("What is the home country of the founder of Borealis Freight?")[0]!;
    const missing = ["founder", "country"];
    expect(hopWords(part, missing, on).slice(0, 2)).toEqual(["home", "country"]);
    expect(hopWords(part, missing, off)).toEqual(missing);
  });
  it("keeps the missing words of a part that is no chain", () => {
    const part = decompose("What is the retention period of audit logs?")[0]!;
    expect(hopWords(part, ["retention"], on)).toEqual(["retention"]);
  });
  it("leaves out the words of the names the part gives (hop.skipNameWords)", () => {
    const part = decompose("Which county holds the village Orla Vennick was born in?")[0]!;
    expect(part.entities).toContain("Orla Vennick");
    const keep = { hop: { ...on.hop, skipNameWords: false } };
    expect(hopWords(part, ["vennick", "born"], keep)).toEqual(["vennick", "born"]);
    expect(hopWords(part, ["vennick", "born"], on)).toEqual(["born"]);
    // Only name words missing: the hop asks for the part's other words instead.
    const others = hopWords(part, ["orla", "vennick"], on);
    expect(others).toContain("county");
    expect(others.some((w) => w === "orla" || w === "vennick")).toBe(false);
  });
  it("keeps an identifier's words: they find the record's own fields again", () => {
    const part = decompose("What is the carrier of shipment QX-4410?")[0]!;
    expect(hopWords(part, ["qx", "4410", "carrier"], on)).toEqual(["qx", "4410", "carrier"]);
    // The same part as if its name held no figure: the name's words leave.
    const named = { ...part, entities: ["QX-Forty"], terms: ["carrier", "shipment", "qx", "forty"] };
    expect(hopWords(named, ["qx", "forty", "carrier"], on)).toEqual(["carrier"]);
  });
  it("keeps the words of names when the part gives several (the others constrain the bridge)", () => {
    const part = decompose("Which founder of the Tamsby Guild signed the Harlow Canal Charter?")[0]!;
    expect(part.entities.length).toBeGreaterThan(1);
    expect(hopWords(part, ["harlow", "canal", "signed"], on)).toEqual(["harlow", "canal", "signed"]);
  });
});

describe("planCalls, a hop's bridge", () => {
  const q = "Who is the sheriff of the county in which Marrowvale lies?";
  const first: EvidenceItem = {
    ...evidence(1, "Marrowvale is a hamlet of Westmarch, in Quillon County."),
    title: "Marrowvale",
    source: "wiki",
  };
  const call: CallRecord = {
    call: { callId: "c1", tool: "search", args: { corpus: "wiki", query: q, k: 3 }, subQuestion: 0 },
    step: 1,
    status: "ok",
    passageKeys: [passageKey(first)],
  };
  const state = makeState({ question: q, standaloneQuestion: q, step: 2, evidence: [first], calls: [call] });
  const hopQueries = async (settings: typeof OFFLINE_PRESETS.balanced) => {
    const plan = await planCalls(state, ctx, decompose(q), settings);
    return plan.calls.filter((c) => c.tool === "search").map((c) => String(c.args.query));
  };

  it("follows the name of the kind asked (the county), not the first name of the sentence", async () => {
    const queries = await hopQueries(OFFLINE_PRESETS.balanced);
    expect(queries[0]).toMatch(/^Quillon County/);
    const off = { ...OFFLINE_PRESETS.balanced, hop: { ...OFFLINE_PRESETS.balanced.hop, typeFit: 0 } };
    expect((await hopQueries(off))[0]).toMatch(/^Westmarch/);
  });
});

describe("lookupCalls: a hop from a record's code looks up the code's own entry", () => {
  const lookupTool = { name: "lookup", description: "Look up a key.", inputSchema: {}, parallelSafe: true };
  const record: EvidenceItem = { ...evidence(1, "order_id: QO-117\ndepot: ZQ"), docId: "orders.csv#QO-117" };
  const prose = evidence(2, "Orders picked at VX are packed overnight.");
  const state = makeState({
    tools: [...makeState().tools, lookupTool],
    evidence: [record, prose],
    calls: [searchRecord("who runs the depot of QO-117", [record, prose])],
  });
  const settings = OFFLINE_PRESETS.balanced;

  it("plans one lookup of a field's value, with the words the hop wants, once", () => {
    const issued = new Set<string>();
    const calls = lookupCalls(state, 0, "ZQ", ["runs", "depot"], settings, issued);
    expect(calls).toEqual([
      { tool: "lookup", args: { key: "ZQ", query: "runs depot", k: settings.hopK }, subQuestion: 0, follows: "ZQ" },
    ]);
    expect(lookupCalls(state, 0, "ZQ", ["runs", "depot"], settings, issued)).toEqual([]);
  });

  it("plans none for a code only prose names, without the tool, or with hop.lookupKeys off", () => {
    expect(lookupCalls(state, 0, "VX", ["depot"], settings, new Set())).toEqual([]);
    expect(lookupCalls(makeState({ ...state, tools: makeState().tools }), 0, "ZQ", [], settings, new Set())).toEqual(
      [],
    );
    const off = { ...settings, hop: { ...settings.hop, lookupKeys: false } };
    expect(lookupCalls(state, 0, "ZQ", ["depot"], off, new Set())).toEqual([]);
  });
});

describe("searchedUnfound: a name a search started with that nothing found mentions", () => {
  const part = { entities: ["Lindau", "Harbor Review"] };
  it("names it once a search started with it and found nothing naming it", () => {
    expect(searchedUnfound(part, ["Lindau is a town."], ["Harbor Review founded", "Where is Lindau"])).toEqual([
      "Harbor Review",
    ]);
    expect(searchedUnfound(part, ["Lindau is a town."], ["Where is Lindau"])).toEqual([]);
    expect(searchedUnfound(part, ["The Harbor Review was founded in Lindau."], ["Harbor Review founded"])).toEqual([]);
  });

  it("ends the part's searching in planCalls (and only with hop.stopUnfound)", async () => {
    const question = "Who edits the Harbor Review in Lindau?";
    const passages = [
      evidence(1, "Lindau is a town on Lake Constance with a small port."),
      evidence(2, "Lindau's port authority publishes a weekly bulletin edited by Mara Venn."),
    ];
    const record = (step: number, query: string, n: number) => ({
      call: { callId: `c${step}`, tool: "search", args: { corpus: "handbook", query, k: 3 }, subQuestion: 0 },
      step,
      status: "ok" as const,
      passageKeys: [passageKey(passages[n]!)],
    });
    const state = makeState({
      question,
      standaloneQuestion: question,
      step: 3,
      evidence: passages,
      calls: [record(1, question, 0), record(2, "Harbor Review edits", 1)],
    });
    const parts = decompose(question);
    const on = await planCalls(state, ctx, parts, OFFLINE_PRESETS.balanced);
    expect(on.calls).toEqual([]);
    expect(on.done).toBe(true);
    expect(on.thought).toContain("Harbor Review");
    const off = { ...OFFLINE_PRESETS.balanced, hop: { ...OFFLINE_PRESETS.balanced.hop, stopUnfound: false } };
    expect((await planCalls(state, ctx, parts, off)).calls.length).toBeGreaterThan(0);
  });
});

describe("planCalls, a hop goes on from the chain's page", () => {
  const q = "Which lighthouse stands in the land where the Orlen Creek rises?";
  const river: EvidenceItem = {
    ...evidence(1, "The Orlen Creek rises near Tamsby in Estrovia."),
    title: "Orlen Creek",
    source: "wiki",
  };
  const rival: EvidenceItem = {
    ...evidence(2, "Grey Point Lighthouse stands in the land of Halden, where the creek rises from the dunes."),
    title: "Grey Point Lighthouse",
    source: "wiki",
  };
  const lighthouse = { ...evidence(9, "Kessin Lighthouse is the oldest lighthouse of Estrovia."), title: "Kessin" };
  const call: CallRecord = {
    call: { callId: "c1", tool: "search", args: { corpus: "wiki", query: q, k: 3 }, subQuestion: 0 },
    step: 1,
    status: "ok",
    passageKeys: [passageKey(rival), passageKey(river)],
  };
  const state = makeState({ question: q, standaloneQuestion: q, step: 2, evidence: [rival, river], calls: [call] });
  // A probe finds the lighthouse page only for a search naming the land it stands in.
  const probing: EngineContext = {
    signal: new AbortController().signal,
    probe: async (query) => (query.startsWith("Estrovia ") ? [lighthouse] : []),
  };
  const followed = async (settings: typeof OFFLINE_PRESETS.balanced, context = ctx) => {
    const plan = await planCalls(state, context, decompose(q), settings);
    return plan.calls.filter((c) => c.tool === "search").map((c) => c.follows);
  };
  const hop = (over: Partial<typeof OFFLINE_PRESETS.balanced.hop>) => ({
    ...OFFLINE_PRESETS.balanced,
    hop: { ...OFFLINE_PRESETS.balanced.hop, ...over },
  });

  it("follows a name of the page naming what the question names, not of a page that only shares its words", async () => {
    const names = await followed(hop({ lookahead: 0 }));
    expect(["Tamsby", "Estrovia"]).toContain(names[0]);
    const unchained = await followed(hop({ lookahead: 0, chainSeeds: false }));
    expect(["Halden", "Grey Point Lighthouse"]).toContain(unchained[0]);
  });

  it("follows the name whose hop finds a new page saying what is asked (hop.lookahead)", async () => {
    expect((await followed(hop({}), probing))[0]).toBe("Estrovia");
    expect((await followed(hop({ lookahead: 0 }), probing))[0]).toBe("Tamsby");
  });
});

describe("planCalls, a bridge names one thing", () => {
  const q = "Which club did the coach of the Tarrow Gulls play for?";
  const team: EvidenceItem = {
    ...evidence(1, "The Tarrow Gulls are a Velish rowing crew coached by Imre Dalkas."),
    title: "Tarrow Gulls",
    source: "wiki",
  };
  const call: CallRecord = {
    call: { callId: "c1", tool: "search", args: { corpus: "wiki", query: q, k: 3 }, subQuestion: 0 },
    step: 1,
    status: "ok",
    passageKeys: [passageKey(team)],
  };
  const state = makeState({ question: q, standaloneQuestion: q, step: 2, evidence: [team], calls: [call] });
  state.sources = state.sources.map((s) => ({ ...s, documents: 500 }));
  // The graph knows both names; the demonym is mentioned on most pages, the coach on two, and neither has a
  // page of its own.
  const counts: Record<string, number> = { Velish: 600, "Imre Dalkas": 2 };
  const graph: EngineContext = {
    signal: new AbortController().signal,
    entity: async (value) =>
      counts[value] === undefined
        ? undefined
        : {
            entity: {
              key: value.toLowerCase(),
              text: value,
              type: "name",
              mentions: counts[value]!,
              documents: counts[value]!,
            },
            defined: false,
          },
  };
  const followed = async (commonPenalty: number, skipModifiers = false) => {
    const settings = {
      ...OFFLINE_PRESETS.balanced,
      bridgesPerHop: 2,
      hop: { ...OFFLINE_PRESETS.balanced.hop, commonPenalty, lookahead: 0, skipModifiers },
    };
    const plan = await planCalls(state, graph, decompose(q), settings);
    return plan.calls.filter((c) => c.tool === "search").map((c) => c.follows);
  };

  it("follows the rare name before the one most pages mention (hop.commonPenalty)", async () => {
    expect((await followed(1))[0]).toBe("Imre Dalkas");
    expect((await followed(0))[0]).toBe("Velish");
  });

  it("never follows a one-word name its sentence only uses to describe ('a Velish rowing crew': hop.skipModifiers)", async () => {
    expect(await followed(0, true)).not.toContain("Velish");
    expect((await followed(0, true))[0]).toBe("Imre Dalkas");
  });

  // Without a graph: a probe for the demonym finds a longer title holding it; the coach's probe finds his page.
  const titles: Record<string, string> = { Velish: "Velish Rowing Federation", "Imre Dalkas": "Imre Dalkas" };
  const probing: EngineContext = {
    signal: new AbortController().signal,
    probe: async (query) =>
      titles[query] ? [{ ...evidence(7, `${titles[query]} is named here.`), title: titles[query] }] : [],
  };
  const byTitle = async (strictTitle: boolean) => {
    const settings = {
      ...OFFLINE_PRESETS.balanced,
      hop: { ...OFFLINE_PRESETS.balanced.hop, strictTitle, lookahead: 0, skipModifiers: false },
    };
    const plan = await planCalls(state, probing, decompose(q), settings);
    return plan.calls.filter((c) => c.tool === "search").map((c) => c.follows);
  };

  it("counts a page of its own only when titled after the name (hop.strictTitle)", async () => {
    expect((await byTitle(true))[0]).toBe("Imre Dalkas");
    expect((await byTitle(false))[0]).toBe("Velish");
  });
});

describe("planCalls, a hop from a named record", () => {
  const q = "Which team owns the service of ticket T-2071?";
  const ticket: EvidenceItem = {
    ...evidence(1, "ticket_id: T-2071\nsee_also_team_service_ticket: T-2207\ncomponent: Ledger Sync"),
    title: "T-2071",
    source: "wiki",
  };
  const call: CallRecord = {
    call: { callId: "c1", tool: "search", args: { corpus: "wiki", query: q, k: 3 }, subQuestion: 0 },
    step: 1,
    status: "ok",
    passageKeys: [passageKey(ticket)],
  };
  const state = makeState({ question: q, standaloneQuestion: q, step: 2, evidence: [ticket], calls: [call] });
  const followed = async (skipSiblings: boolean) => {
    const settings = { ...OFFLINE_PRESETS.balanced, hop: { ...OFFLINE_PRESETS.balanced.hop, skipSiblings } };
    const plan = await planCalls(state, ctx, decompose(q), settings);
    return plan.calls.filter((c) => c.tool === "search").map((c) => c.follows);
  };

  it("does not follow another ticket the record names (hop.skipSiblings)", async () => {
    expect(await followed(true)).toEqual(["Ledger Sync"]);
    expect(await followed(false)).toEqual(["T-2207"]);
  });
});

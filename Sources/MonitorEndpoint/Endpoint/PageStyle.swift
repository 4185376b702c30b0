/// The pages' one style sheet, served at `/style.css` from the same origin, so the Content-Security-Policy can
/// forbid inline styles and every other origin. Phone and wide layouts are CSS only: below 720 px the domain
/// table becomes one card per domain, each cell labelled by its `data-label`.
///
/// A domain name never breaks inside a label (`HTMLWriter.domainName`): each label is `nowrap`, so a name wraps, if
/// it must, only after a dot; a single label wider than the screen scrolls inside its own box, never the page.
enum PageStyle {
    static let path = "/style.css"

    static let css = """
        :root { color-scheme: light dark; --ok: #1a7f37; --warn: #9a6700; --bad: #cf222e; --muted: #6e7781;
          --line: #d0d7de; --none: #d0d7de; }
        @media (prefers-color-scheme: dark) {
          :root { --ok: #3fb950; --warn: #d29922; --bad: #f85149; --muted: #8b949e; --line: #30363d; --none: #30363d; }
        }
        * { box-sizing: border-box; }
        body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; padding: 1rem; max-width: 1400px; }
        h1 { font-size: 1.4rem; margin: 0 0 .25rem; } h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
        a { color: inherit; } .muted, time { color: var(--muted); }
        header.top { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: flex-start;
          gap: .5rem 2rem; margin-bottom: .75rem; }
        header.top .made { margin: 0; text-align: right; color: var(--muted); font-size: .9rem; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid var(--line); }
        th { font-weight: 600; white-space: nowrap; }
        td { overflow-wrap: anywhere; }
        .dn { overflow-wrap: normal; word-break: keep-all; }
        .dn span { white-space: nowrap; }
        td.name { overflow-wrap: normal; min-width: 12rem; }
        h1.dn { overflow-x: auto; }
        table.domains time { white-space: nowrap; } table.domains small { color: var(--muted); font-size: .85rem; }
        table.timeline td.when, table.timeline td.kind { white-space: nowrap; }
        .scroll { overflow-x: auto; }
        .verdict { font-weight: 600; white-space: nowrap; }
        .v-ready { color: var(--ok); } .v-cdn_stale, .v-cdn_missing, .v-unknown, .v-not_checked { color: var(--warn); }
        .v-origin_broken, .v-expectation_failed { color: var(--bad); }
        .sev-error { color: var(--bad); } .sev-warning { color: var(--warn); }
        .strip { display: inline-flex; gap: 1px; white-space: nowrap; vertical-align: middle; }
        .strip .run { display: inline-flex; gap: 1px; }
        .strip i { display: inline-block; width: 4px; height: 1.1rem; border-radius: 1px; background: currentColor; }
        .strip .none { color: var(--none); }
        form.filter { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1rem; margin: 0 0 .75rem; }
        form.filter fieldset { display: flex; flex-wrap: wrap; gap: .25rem .9rem; border: 1px solid var(--line);
          border-radius: 6px; margin: 0; padding: .3rem .75rem .45rem; }
        form.filter legend { font-weight: 600; padding: 0 .25rem; }
        form.filter label { white-space: nowrap; }
        form.filter label.name { display: flex; align-items: center; gap: .4rem; flex: 0 1 24rem; min-width: 0; }
        form.filter input[type=search] { font: inherit; flex: 1 1 12rem; min-width: 0; padding: .2rem .4rem; }
        form.filter button { font: inherit; padding: .2rem .8rem; }
        nav.pager { display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: .5rem 0; }
        dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 0; }
        dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
        .finding { border-left: 4px solid var(--line); padding: .25rem .75rem; margin: .5rem 0; }
        .finding p { margin: .2rem 0; overflow-wrap: anywhere; } .finding .message { white-space: pre-wrap; }
        .finding .finding.consequence { margin-left: .5rem; }
        .chart svg { width: 100%; height: auto; max-width: 720px; }
        .chart .line { fill: none; stroke: #0969da; stroke-width: 2; } .chart .dot { fill: #0969da; }
        .chart .axis { stroke: var(--muted); } .chart text { fill: currentColor; font-size: 12px; }
        @media (max-width: 720px) {
          header.top .made { text-align: left; }
          h1.dn { font-size: 1.2rem; }
          .scroll { overflow-x: visible; }
          form.filter label.name { flex: 1 1 100%; }
          table.domains, table.domains tbody { display: block; }
          table.domains thead { display: none; }
          table.domains tr { display: block; border: 1px solid var(--line); border-radius: 6px; margin: .5rem 0; }
          table.domains td { display: grid; grid-template-columns: 9rem minmax(0, 1fr); border: 0; }
          table.domains td::before { content: attr(data-label); font-weight: 600; }
          table.domains td.name { display: block; font-weight: 600; font-size: 1.05rem; overflow-x: auto; }
          table.domains td.name::before { content: none; }
          dl.facts { grid-template-columns: 1fr; } dl.facts dd { margin-bottom: .4rem; }
          table.timeline, table.timeline tbody, table.timeline tr { display: block; }
          table.timeline td { display: inline-block; border: 0; padding: .1rem .5rem .1rem 0; }
          table.timeline td:last-child { display: block; padding-left: 1rem; }
          table.timeline tr { border-bottom: 1px solid var(--line); padding: .3rem 0; }
        }
        """
}

/** The floor's stylesheet: fits 1024×600 up to 1920×1080 without sideways scrolling (served as /floor.css). */
export const FLOOR_CSS = `*{box-sizing:border-box}
.clock{display:flex;flex-wrap:wrap;align-items:center;gap:4px 16px;margin:4px 0;padding:4px 8px;background:#fff;border:1px solid #ccc}
.clock h2{font-size:1.1rem;margin:0}
.clock p{margin:0}
.clock__period{font-size:1.25rem}
.clock__controls{display:flex;gap:8px}
.clock__controls form{margin:0}
.clock button{min-height:44px;min-width:64px;font:inherit}
.clock__problem{color:#a00;font-weight:bold}
.seating{margin:0 0 1.25rem}.seating form{display:inline}.seating form.break{display:block;margin:.5rem 0}.seating .confirm{margin:.5rem 0;padding:.5rem;border:2px solid #a60;background:#fff8e6}.seating .confirm p{margin:0 0 .5rem}.seating .confirm a{margin-left:.5rem}.seating .changes li{margin:.25rem 0}
html{font:16px/1.35 system-ui,sans-serif;color:#111;background:#f6f6f4}
body{margin:0;padding:8px 12px}
a{color:#0645ad;min-height:44px;display:inline-flex;align-items:center;padding:0 4px}
.top{display:flex;flex-wrap:wrap;align-items:center;gap:4px 16px}
.top h1{font-size:1.5rem;margin:0;flex:1 1 auto}
.top h1 small{font-size:1rem;font-weight:normal;color:#555}
.clock__held{margin:4px 0;padding:4px 8px;background:#fff3cd;border:1px solid #8a5a00;border-radius:4px;font-weight:700}
.board{margin:6px 0;padding:6px 10px;background:#fff;border:1px solid #ccc;border-radius:6px}.board h2{margin:0 0 4px;font-size:1rem}.board-counts{display:flex;flex-wrap:wrap;gap:4px 18px;margin:0;padding:0;list-style:none}.board-count{font-size:1.25rem;font-weight:700}.board p{margin:4px 0 0;overflow-wrap:anywhere}.board-done{color:#05620c;font-weight:700}
.totals{display:flex;flex-wrap:wrap;gap:4px 20px;margin:6px 0;padding:6px 10px;background:#fff;border:1px solid #ccc;border-radius:6px}
.totals div{min-width:0}
.totals dt{font-size:.8rem;color:#555}
.totals dd{margin:0;font-size:1.25rem;font-weight:600;overflow-wrap:anywhere}
.hint{margin:0 0 6px;font-size:.85rem;color:#555}
.alert{background:#fde8e8;border:2px solid #b00020;color:#7a0014;padding:4px 10px;border-radius:6px;margin:6px 0}
.alert h2{font-size:1rem;margin:0}
.alert ul{margin:2px 0;padding-left:18px}
.alert--damaged{background:#fff4d6;border-color:#8a5a00;color:#5c3b00}
table{width:100%;border-collapse:collapse;table-layout:fixed;background:#fff}
th,td{border-bottom:1px solid #ddd;padding:3px 5px;text-align:left;vertical-align:top;overflow-wrap:anywhere;word-break:break-word}
thead th{font-size:.75rem;color:#444;background:#eee;overflow-wrap:normal;word-break:normal;hyphens:auto}
.num{text-align:right;font-variant-numeric:tabular-nums}
.tables .c-table{width:9%}.tables .c-link{width:15%}.tables .c-colour{width:11%}.tables .c-num{width:7%}.tables .c-chips{width:12%}.tables .c-wide{width:11%}.tables .c-open{width:15%}
tr.failed{background:#fde8e8}
tr.failed th,tr.failed td{color:#7a0014}
tr.damaged{background:#fff4d6}
tr.flagged{background:#ffe2c2}
.decision label{display:inline-block;margin:4px 10px 4px 0}.decision input,.decision select,.decision button{font-size:1rem;min-height:36px}.decisions li{margin:2px 0}
.reader--warn{color:#8a5a00;font-weight:bold}.link--connected{color:#05620c}.link--behind{color:#8a5a00}.link--offline,.link--never{color:#7a0014}
.colour--disputed,.colour--floor-called{color:#b00020;font-weight:700}.closed{color:#8a5a00}.colour--waiting-to-confirm{color:#8a5a00;font-weight:600}.colour--done,.colour--closed{color:#05620c}
.chain--broken{color:#b00020}
.chips{white-space:nowrap;display:inline-block;margin-right:6px}
.card{font-weight:700;white-space:nowrap}
.seal{font-size:.7rem;overflow-wrap:anywhere}
tr.void td,tr.refused td{color:#8a5a00}
.what-if li.differs{font-weight:700;color:#8a5a00}
h2{font-size:1.05rem;margin:8px 0 4px}h3{font-size:.95rem;margin:6px 0 2px}
.counts{max-width:640px}
.record .c-seq{width:4.5em}.record .c-at{width:11em}.record .c-what{width:14em}
.login{max-width:420px;margin:40px auto}
.login input,.login button{font-size:1rem;min-height:44px;margin:6px 0;width:100%}
@media (max-width:1100px){html{font-size:14px}.totals dd{font-size:1.05rem}}
`;

extension HTMLReport {
    public static let stylesheet = """
        :root{--fg:#1d2330;--muted:#5b6577;--line:#dde2ea;--bg:#f6f7f9;--card:#fff;
        --pass:#1a7f37;--known:#9a6700;--changed:#0969da;--new:#8250df;--bad:#cf222e;--stale:#bc4c00;--skip:#6e7781}
        *{box-sizing:border-box}
        body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
        header,main,nav.filters,.charts,section.repeats,section.matrix,section.run,section.attention{max-width:1200px;margin:0 auto;padding:12px 16px}
        [id]{scroll-margin-top:var(--sticky-height,4.5rem)}
        h1{font-size:1.4rem;margin:.3rem 0}h1 small{color:var(--muted);font-weight:400;font-size:.9rem}
        h2{font-size:1.15rem;margin:.2rem 0 .6rem}h3{font-size:1rem;margin:0 0 .4rem;display:flex;flex-wrap:wrap;gap:.4rem;align-items:center}
        h4{margin:.6rem 0 .3rem;font-size:.9rem;color:var(--muted)}
        .verdict{font-size:.85rem;padding:2px 8px;border-radius:12px;color:#fff;vertical-align:middle}
        .verdict.pass{background:var(--pass)}.verdict.fail{background:var(--bad)}
        .counts{display:flex;flex-wrap:wrap;gap:6px;margin:.4rem 0}
        .count{border:1px solid var(--line);background:var(--card);border-radius:6px;padding:3px 8px}
        .count.zero{background:var(--card)!important;color:var(--muted)!important;border:1px solid var(--line)!important}
        .facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:4px 16px;margin:.6rem 0}
        .facts dt{font-size:.75rem;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}.facts dd{margin:0;overflow-wrap:anywhere}
        .prompt{white-space:nowrap}
        .warnings{color:var(--stale);overflow-wrap:anywhere}
        section.attention{background:var(--card);border:2px solid var(--bad);border-radius:10px;margin:8px auto}
        section.attention ol,section.attention ul{margin:.3rem 0;padding-left:1.4rem}section.attention li{margin:.25rem 0;overflow-wrap:anywhere}
        section.attention .known,section.attention .unapproved{margin-top:.6rem}
        .charts{display:flex;flex-wrap:wrap;gap:12px}
        .chart{margin:0;background:var(--card);border:1px solid var(--line);border-radius:8px;padding:8px;flex:1 1 280px;max-width:420px}
        .chart figcaption{font-size:.8rem;color:var(--muted)}.chart svg{width:100%;height:auto;display:block}
        .grid{stroke:var(--line)}.tick{font-size:9px;fill:var(--muted)}
        .bar-a{fill:#0969da}.bar-b{fill:#a0c4f0}.rate{fill:none;stroke:var(--pass);stroke-width:2}.rate-point{fill:var(--pass)}
        .legend{font-size:.75rem;color:var(--muted);display:flex;gap:10px}.swatch{display:inline-block;width:10px;height:10px;margin-right:4px}
        .swatch.bar-a{background:#0969da}.swatch.bar-b{background:#a0c4f0}
        section.matrix summary h2{display:inline;color:var(--fg)}
        .matrix-legend{flex-wrap:wrap;margin:.4rem 0}.matrix-legend .cell{display:inline-block;width:16px;height:16px;line-height:16px;text-align:center;vertical-align:middle}
        .matrix-scroll{overflow:auto;max-height:80vh;width:fit-content;max-width:100%;background:var(--card);border:1px solid var(--line);border-radius:8px}
        .matrix-scroll table{border-collapse:separate;border-spacing:2px;font-size:.8rem}
        .matrix-scroll thead th{position:sticky;top:0;z-index:1;background:var(--card);vertical-align:bottom;font-weight:400}
        .matrix-scroll th.corner{left:0;z-index:2;text-align:left;color:var(--muted);padding:0 8px 4px 4px}
        .matrix-scroll th.fixture-col{padding:4px 0}
        .matrix-scroll th.fixture-col a{display:inline-block;writing-mode:vertical-rl;transform:rotate(180deg);max-height:11rem;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;color:var(--fg);text-decoration:none}
        .matrix-scroll tbody th{position:sticky;left:0;background:var(--card);font-weight:400;text-align:left;padding:0 8px 0 4px}
        .matrix-scroll tbody tr:hover th{background:var(--bg)}
        .check-name{display:flex;gap:6px;align-items:baseline;max-width:26rem}
        .check-name code{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;min-width:0}.check-name .tally{white-space:nowrap;flex:none;color:var(--muted)}
        .check-name .tally.bad{color:var(--bad)}
        .cell{width:22px;min-width:22px;height:22px;padding:0;text-align:center;border-radius:3px;font-weight:600}
        .cell a{display:block;line-height:22px;color:inherit;text-decoration:none}
        .m-pass{background:#dafbe1;color:var(--pass)}.m-fail{background:var(--bad);color:#fff}
        .m-known{background:var(--known);color:#fff}.m-not-run{background:#f3f4f6;color:var(--skip);box-shadow:inset 0 0 0 1px var(--line)}
        nav.filters{display:flex;flex-wrap:wrap;gap:6px;position:sticky;top:0;background:var(--bg);z-index:1;border-bottom:1px solid var(--line)}
        nav.filters button{font:inherit;font-size:.85rem;border:1px solid var(--line);background:var(--card);border-radius:14px;padding:4px 10px;cursor:pointer;min-height:32px}
        nav.filters button[aria-pressed=true]{background:var(--fg);color:#fff}
        nav.filters input{font:inherit;font-size:.85rem;padding:4px 8px;border:1px solid var(--line);border-radius:6px;flex:1 1 140px;min-width:0}
        .fixture{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:12px;margin:12px 0}
        .step{border-top:1px solid var(--line);padding:10px 0}
        .meta{color:var(--muted);font-weight:400;font-size:.8rem}
        .badge{font-size:.75rem;padding:1px 7px;border-radius:10px;color:#fff;font-weight:600;white-space:nowrap}
        .s-matches{background:var(--pass)}.s-known-failure{background:var(--known)}.s-unapproved-check{background:var(--known)}.s-changed{background:var(--changed)}
        .s-new{background:var(--new)}.s-regression,.s-error{background:var(--bad)}.s-stale{background:var(--stale)}.s-skipped{background:var(--skip)}
        .count.s-matches,.count.s-known-failure,.count.s-unapproved-check,.count.s-changed,.count.s-new,.count.s-regression,.count.s-error,.count.s-stale,.count.s-skipped{color:#fff;border:0}
        .reasons{margin:.2rem 0 .5rem;padding-left:1.2rem;color:var(--muted);overflow-wrap:anywhere}
        .cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:8px;margin:.4rem 0}
        .card{border:1px solid var(--line);border-radius:8px;padding:8px 10px;background:#fbfcfd}.card p{margin:.3rem 0;font-size:.9rem;white-space:pre-line}
        .card code{font-size:.75rem;color:var(--muted)}.cards.golden .card{background:#f3f0ff}
        .programs{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:12px}
        .program{border:1px solid var(--line);border-radius:8px;padding:4px 14px;overflow-x:auto;min-width:0}.program.golden{background:#fbfaf5}
        .program h1{font-size:1.2rem}.program h2{font-size:1.05rem}
        .program table,.checks table{border-collapse:collapse;width:100%;font-size:.9rem}
        .program th,.program td,.checks th,.checks td{border:1px solid var(--line);padding:3px 6px;text-align:left;vertical-align:top}
        .scroll{overflow-x:auto}
        .ok{color:var(--pass);font-weight:600}.bad{color:var(--bad);font-weight:600}
        tr.failed td{background:#fff5f5}
        pre{background:#f3f4f6;border-radius:6px;padding:8px;overflow-x:auto;font-size:.8rem;white-space:pre-wrap;overflow-wrap:anywhere}
        pre .add{color:#116329;background:#dafbe1}pre .del{color:#82071e;background:#ffebe9}
        pre .chg{color:#7d4e00;background:#fff8c5}pre .hunk{color:var(--changed)}
        pre.detail{margin:.3rem 0}
        .program ins{text-decoration:none;background:#abf2bc;border-radius:2px}.program del{text-decoration:none;background:#ffcecb;border-radius:2px}
        details{margin:.3rem 0}summary{cursor:pointer;color:var(--muted);font-size:.9rem}
        .intake dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 10px;font-size:.9rem}.intake dt{color:var(--muted)}.intake dd{margin:0;overflow-wrap:anywhere;white-space:pre-line}
        [hidden]{display:none!important}
        @media (max-width:600px){body{font-size:14px}.intake dl{grid-template-columns:1fr}.intake dd{margin-bottom:4px}
        .checks table,.checks tbody,.checks tr,.checks td{display:block}.checks thead{display:none}
        .checks tr{border-bottom:1px solid var(--line);padding:4px 0}.checks td{border:0;padding:1px 4px}
        .check-name{max-width:11rem;flex-direction:column;align-items:stretch;gap:0}}
        """

    /// Filtering without reloading: by status button and by a search over fixture and step names.
    static let script = """
        (function(){
        var filter='all',query='';
        var problems=['regression','error','stale','changed','new'];
        function apply(){
          document.querySelectorAll('section.fixture').forEach(function(section){
            var name=(section.dataset.name||'').toLowerCase(),shown=0;
            section.querySelectorAll('article.step').forEach(function(step){
              var status=step.dataset.status;
              var byStatus=filter==='all'||(filter==='problems'?problems.indexOf(status)>=0:status===filter);
              var byText=!query||name.indexOf(query)>=0||(step.dataset.step||'').indexOf(query)>=0;
              step.hidden=!(byStatus&&byText);if(!step.hidden)shown++;
            });
            section.hidden=section.dataset.name!==undefined&&shown===0;
          });
        }
        document.querySelectorAll('nav.filters button').forEach(function(button){
          button.addEventListener('click',function(){
            filter=button.dataset.filter;
            document.querySelectorAll('nav.filters button').forEach(function(b){b.setAttribute('aria-pressed',String(b===button));});
            apply();
          });
        });
        var search=document.getElementById('search');
        if(search)search.addEventListener('input',function(){query=search.value.trim().toLowerCase();apply();});
        // Headings jumped to stop below the sticky filter bar, however many rows it wraps to.
        var bar=document.querySelector('nav.filters');
        function measure(){if(bar)document.documentElement.style.setProperty('--sticky-height',(bar.offsetHeight+8)+'px');}
        measure();window.addEventListener('resize',measure);
        // A link to a step the filters hide shows every step first.
        document.querySelectorAll('a[href^="#"]').forEach(function(link){
          link.addEventListener('click',function(){
            var target=document.getElementById(decodeURIComponent(link.getAttribute('href').slice(1)));
            if(target&&target.closest('[hidden]')){
              if(search)search.value='';query='';
              var all=document.querySelector('nav.filters button[data-filter="all"]');if(all)all.click();
            }
          });
        });
        })();
        """
}

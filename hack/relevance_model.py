#!/usr/bin/env python3
"""A rough model of Aisle's default ranking, to try ranking ideas in seconds before
building them (docs/benchmarks.md, "A model of the ranking").

It reads a judged set of ../shared/relevance/ at run time, analyses the fields with a
crude English analyzer (lowercase, stop words, plural stripping), and ranks every record
by each named system below; it prints NDCG@10 per query-length class. It is not the
engine: its figures only say which way a change may move the real ones, which
`make bench-relevance` then measures. On the development halves it gives Icecat 0.689
and 0.608 for Aisle's default and the weighted multi_match (the real ones: 0.682 and
0.604); ESCI is modelled less well (0.569 against 0.659: no negation, no typos).

usage: hack/relevance_model.py icecat|esci [system ...]
"""
import collections, csv, gzip, json, math, re, sys

SETS = {
    'icecat': ('icecat-products.jsonl.gz', 'icecat-judgments-dev.csv', ',',
               {'title': 4, 'name': 3, 'supplier': 2, 'description': 1},
               lambda v: 2 ** int(v) - 1),
    'esci': ('esci-products.jsonl.gz', 'esci-judgments-dev.tsv', '\t',
             {'title': 4, 'brand': 3, 'color': 2, 'bullets': 1, 'description': 1},
             lambda v: {'100': 1, '10': 0.1, '1': 0.01, '0': 0}[v]),
}
STOP = set("a an and are as at be but by for if in into is it no not of on or such that "
           "the their then there these they this to was will with".split())
K1, B = 1.2, 0.75


def analyse(text):
    if isinstance(text, list):
        text = ' '.join(map(str, text))
    out = []
    for w in re.findall(r'[a-z0-9]+', str(text or '').lower()):
        if w in STOP:
            continue
        for suf, rep in (('ies', 'y'), ('es', ''), ('s', '')):
            if w.endswith(suf) and len(w) > len(suf) + 2:
                w = w[:-len(suf)] + rep
                break
        out.append(w)
    return out


class Index:
    def __init__(self, setname, root='../shared/relevance/'):
        pf, jf, sep, self.weights, self.gain = SETS[setname]
        self.tf = {f: {} for f in self.weights}
        self.len = {f: {} for f in self.weights}
        self.df = {f: collections.Counter() for f in self.weights}
        for line in gzip.open(root + pf, 'rt'):
            r = json.loads(line)
            for f in self.weights:
                words = analyse(r.get(f))
                c = collections.Counter(words)
                self.tf[f][r['objectID']], self.len[f][r['objectID']] = c, len(words)
                self.df[f].update(c.keys())
        self.ids = list(self.tf['title'])
        self.n = len(self.ids)
        self.avg = {f: sum(self.len[f].values()) / self.n for f in self.weights}
        self.any_df = {}
        self.judged = collections.defaultdict(dict)
        with open(root + jf) as fh:
            rows = csv.reader(fh, delimiter=sep)
            next(rows)
            for q, doc, rating in rows:
                self.judged[q][doc] = rating

    def idf(self, n):
        return math.log(1 + (self.n - n + 0.5) / (n + 0.5))

    def holds(self, doc, term):
        return any(self.tf[f][doc].get(term) for f in self.weights)

    def word_idf(self, term):
        if term not in self.any_df:
            self.any_df[term] = sum(1 for d in self.ids if self.holds(d, term))
        return self.idf(self.any_df[term])

    def bm25(self, f, doc, term):
        x = self.tf[f][doc].get(term, 0)
        if not x:
            return 0.0
        norm = 1 - B + B * self.len[f][doc] / self.avg[f]
        return self.idf(self.df[f][term]) * x * (K1 + 1) / (x + K1 * norm)

    def best_fields(self, terms, weights):
        scores = {}
        for d in self.ids:
            s = max(sum(self.bm25(f, d, t) for t in terms) * w for f, w in weights.items())
            if s > 0:
                scores[d] = s
        return scores

    def bm25f(self, terms, weights):
        avg = sum(self.avg[f] * w for f, w in weights.items())
        scores = {}
        for d in self.ids:
            length = sum(self.len[f][d] * w for f, w in weights.items())
            s = 0.0
            for t in terms:
                x = sum(self.tf[f][d].get(t, 0) * w for f, w in weights.items())
                if x:
                    df = max(self.df[f][t] for f in weights)
                    s += self.idf(df) * x * (K1 + 1) / (x + K1 * (1 - B + B * length / avg))
            if s > 0:
                scores[d] = s
        return scores

    def words_first(self, terms, tail):
        """Aisle's default: the idf of the words a record holds first, then the tail."""
        out = {}
        for d, s in tail.items():
            words = sum(self.word_idf(t) for t in set(terms) if self.holds(d, t))
            out[d] = (round(words, 6), s)
        return out

    def ndcg(self, q, ranked):
        j = self.judged[q]
        got = [self.gain(j[d]) if d in j else 0 for d in ranked[:10]]
        ideal = sorted((self.gain(v) for v in j.values()), reverse=True)[:10]
        dcg = lambda g: sum(x / math.log2(i + 2) for i, x in enumerate(g))
        return dcg(got) / dcg(ideal) if dcg(ideal) > 0 else 0.0


SYSTEMS = {
    'multi_match': lambda ix, t: ix.best_fields(t, ix.weights),
    'multi_match unweighted': lambda ix, t: ix.best_fields(t, {f: 1 for f in ix.weights}),
    'bm25f': lambda ix, t: ix.bm25f(t, ix.weights),
    'aisle': lambda ix, t: ix.words_first(t, ix.best_fields(t, ix.weights)),
    'aisle, bm25f tail': lambda ix, t: ix.words_first(t, ix.bm25f(t, ix.weights)),
}


def main():
    ix = Index(sys.argv[1])
    for name in sys.argv[2:] or SYSTEMS:
        by_class = collections.defaultdict(list)
        for q in ix.judged:
            scores = SYSTEMS[name](ix, analyse(q))
            # ties in ascending objectID, as Aisle's last tie-breaker
            ranked = sorted(sorted(scores), key=lambda d: scores[d], reverse=True)
            n = len(q.split())
            v = ix.ndcg(q, ranked)
            by_class['all'].append(v)
            by_class['1 word' if n == 1 else '2-3 words' if n <= 3 else '4+ words'].append(v)
        print(f"{name:24s}", '  '.join(f"{c} {sum(v) / len(v):.3f} ({len(v)})" for c, v in sorted(by_class.items())))


if __name__ == '__main__':
    main()

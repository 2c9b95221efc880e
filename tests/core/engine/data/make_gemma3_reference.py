#!/usr/bin/env python3
"""Writes gemma3_short.json, gemma3_long.json and gemma3_greedy.json: what an exact float64 forward pass of the
Gemma 3 270M sample model (sample_models/gemma-3-270m-q4_k_m.gguf) computes for two texts, so
that test_forward_gemma can hold lmscope's engine to it without the 700 MB of full logits.

The float64 pass is ../shared/tools/ref_hooks.py (run from there, weights dequantized with the
gguf package); the token ids come from an independent tokenizer (Google's sentencepiece, built
from the GGUF's vocabulary by ../../tokenizer/data/make_gemma3_crosscheck.py), BOS first.
The short text is 38 tokens; the long one (817) is longer than the 512-token sliding window of
the local layers. For each, gemma3_NAME.json holds:
  tokens          the ids fed (BOS first)
  lse[t]          log(sum(exp(logits[t]))) of the exact logits at position t
  top_k, tail_samples (SIZES), and gemma3_NAME.logits.f32: float32 [n][top_k + tail_samples][2] of
                  (token id, exact logit) pairs per position: first the top_k largest logits,
                  largest first, then tail_samples ids drawn (with replacement) from the exact
                  distribution restricted to the rest of the vocabulary. Since
                  KL(p || q) = sum_i p_i (l_i - l'_i) + lse' - lse for logits l (exact) and l'
                  (tested), the top entries give their share of the sum exactly and the mean
                  over the samples times the tail's mass estimates the rest without bias.
  pattern         {layer: [head][key] attention weights of the last position} for the layers
                  in PATTERN_LAYERS (local layers see only the last 512 keys, global ones all)
  hooks           (short text only) {"blk.L.NAME": {"max_abs": largest |value| of the whole
                  hook, "at": flat indices, "values": the values there}} for HOOKS of every layer
                  and final_norm, at N_SAMPLES indices spread over each hook (row-major over the
                  shapes of trace/hooks.h)
Values are written with 7 significant digits (float32 precision).
gemma3_greedy.json: for each prompt in GREEDY, its ids (BOS first), the tokens the float64 pass
picks greedily after it and, at each pick, the margin between the best and second-best logit
(the prompts and lengths are chosen so that every margin is over one logit: a pick that an
engine's rounding could flip would make a poor test).

Usage: pip install numpy gguf sentencepiece protobuf
       python3 make_gemma3_reference.py ../../../../sample_models/gemma-3-270m-q4_k_m.gguf
"""
import json
import os
import sys

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '..', '..', 'tokenizer', 'data'))
sys.path.insert(0, os.path.join(here, '..', '..', '..', '..', '..', 'shared', 'tools'))

import ref_hooks  # noqa: E402  (../shared/tools: run from there, never copied in)
import sentencepiece as spm  # noqa: E402
from crosscheck_common import read_gguf_metadata  # noqa: E402
from make_gemma3_crosscheck import model_proto  # noqa: E402

# (top_k, tail_samples) per text: the short one's few positions need more samples each
SIZES = {'short': (256, 128), 'long': (16, 16)}
N_SAMPLES = 24
HOOKS = ['q_rot', 'k_rot', 'v', 'z', 'attn_out', 'resid_mid', 'mlp_act', 'mlp_out', 'resid_post']

SHORT = ("The history of the city goes back more than two thousand years. It grew on both banks "
         "of the river, and its bridges carried traders from the north to the markets of the south.")

LONG = """The lighthouse keeper's log, kept through one winter on a small island in the north.

The first storm of the season came early in November. For three days the wind blew from the
west without a pause, and the waves broke over the lower rocks so often that the path to the
boathouse was under water at every high tide. I kept the lamp lit day and night, because the
spray made the daylight as grey as dusk, and two fishing boats sheltered in the bay behind the
island until the weather turned. When it did, their crews rowed over with a sack of potatoes
and a newspaper that was only a week old, which counts as fresh news out here.

Keeping a light is mostly a matter of small tasks done in the same order every day. In the
morning the lens is cleaned with a soft cloth and a little alcohol, the brass is polished, the
curtains are drawn so that the sun cannot focus through the glass and scorch the burner. At
noon I write down the barometer, the wind and the state of the sea. In the afternoon there is
paint to scrape, a gutter to clear, a hinge to oil. At dusk the curtains open again, the wick
is trimmed, and the clockwork that turns the lens is wound for the first of its four windings
of the night. Between the windings I read, or listen to the radio when the signal is good.

December was calm and very cold. The rain barrels froze solid and I melted snow on the stove
for a fortnight. A seal took to sleeping on the landing stage, and it would not move for me,
so I learned to step around it with the coal bucket. On the shortest day the sun rose at a
quarter to ten and set before three, and the light burned for more than seventeen hours. I
counted the ships that passed: a tanker heading south, two trawlers, a ferry that was late,
and one sailing yacht whose owner must have had either great courage or very little sense.

In January the supply boat missed two of its visits because of the ice in the harbour on the
mainland. I had planned for that, as every keeper does, and the storeroom held enough flour,
tinned fish, oil and paraffin for six weeks. What I had not planned for was the silence. When
the wind drops completely on a winter night, the only sounds are the ticking of the clockwork
and the sea breathing against the rocks, and a person begins to talk to himself without
noticing it. I started writing letters instead, long ones, to friends I had not seen in years.

The worst night came in the middle of February. A gale from the north-east brought snow so
thick that I could not see the lantern from the foot of the tower. Around midnight the
clockwork stopped: a link in the chain had worn through. For the rest of the night I turned
the lens by hand, one full turn every twenty seconds, counting aloud so as not to lose the
rhythm, because a ship that sees a steady light instead of a flashing one may take it for
another lighthouse and steer for the wrong channel. By morning my arms ached to the shoulder,
but the light had not missed a single flash. I repaired the chain with a spare link from the
workshop, slept for four hours, and then wrote the whole night down in this log, as the rules
require.

Spring arrives slowly here. The days lengthen by a few minutes at a time, the snow shrinks
back into the hollows of the rocks, and one morning the first gulls return and fight over the
ledges as if they had never left. When the relief keeper finally stepped off the boat in
March, he asked me whether the winter had been long. I told him that it had been exactly as
long as the log says it was, and not one day more."""

# (prompt, tokens to generate)
GREEDY = [("Monday, Tuesday, Wednesday,", 7), ("The capital of France is Paris. The capital of Germany is", 5)]

PATTERN_LAYERS = {'short': list(range(18)), 'long': [0, 5]}


def g7(x):
    return float(f'{float(x):.7g}')


def tokens_for(text, meta):
    sp = spm.SentencePieceProcessor(model_proto=model_proto(meta).SerializeToString())
    return [int(meta['tokenizer.ggml.bos_token_id'])] + sp.encode(text)


def summary(name, text, ids, H, with_hooks):
    """The JSON object, and the [n][top_k + tail_samples][2] (id, logit) pairs."""
    top_k, tail_samples = SIZES[name]
    logits = H['logits']  # [n][n_vocab], float64
    n = len(ids)
    m = logits.max(-1, keepdims=True)
    lse = m[:, 0] + np.log(np.exp(logits - m).sum(-1))
    rng = np.random.default_rng(2026)
    pairs = np.empty((n, top_k + tail_samples, 2), dtype=np.float32)
    tail_mass = np.empty(n)
    for t in range(n):
        order = np.argsort(-logits[t])
        top, rest = order[:top_k], order[top_k:]
        p_rest = np.exp(logits[t, rest] - lse[t])
        tail_mass[t] = p_rest.sum()
        drawn = rng.choice(rest, size=tail_samples, p=p_rest / p_rest.sum())
        ids_t = np.concatenate([top, drawn])
        pairs[t, :, 0] = ids_t
        pairs[t, :, 1] = logits[t, ids_t]
    out = {
        'text': text,
        'tokens': [int(t) for t in ids],
        'top_k': top_k,
        'tail_samples': tail_samples,
        'lse': [g7(v) for v in lse],
        'pattern': {str(il): [[g7(v) for v in H[f'blk.{il}.pattern'][h, -1]]
                              for h in range(H[f'blk.{il}.pattern'].shape[0])]
                    for il in PATTERN_LAYERS[name]},
    }
    if with_hooks:
        hooks = {}
        n_layer = max(int(k.split('.')[1]) for k in H if k.startswith('blk.')) + 1
        names = [f'blk.{il}.{h}' for il in range(n_layer) for h in HOOKS] + ['final_norm']
        for key in names:
            flat = H[key].reshape(-1)
            at = np.linspace(0, flat.size - 1, N_SAMPLES).round().astype(int)
            hooks[key] = {'max_abs': g7(np.abs(flat).max()), 'at': [int(i) for i in at],
                          'values': [g7(flat[i]) for i in at]}
        out['hooks'] = hooks
    print(f'{name}: {n} tokens, mass outside the top {top_k}: mean {tail_mass.mean():.3f}, max {tail_mass.max():.3f}')
    return out, pairs


def greedy(kv, t, meta):
    rows = []
    for prompt, n in GREEDY:
        ids = tokens_for(prompt, meta)
        out, margins = [], []
        for _ in range(n):
            logits = ref_hooks.forward(kv, t, np.array(ids + out))['logits'][-1]
            best, second = np.argsort(-logits)[:2]
            out.append(int(best))
            margins.append(round(float(logits[best] - logits[second]), 3))
        print(f'greedy: {prompt!r} + {out}, margins {margins}')
        rows.append({'prompt': prompt, 'tokens': ids, 'greedy': out, 'margins': margins})
    return rows


def main():
    if len(sys.argv) not in (2, 3):
        raise SystemExit(__doc__)
    model = sys.argv[1]
    meta = read_gguf_metadata(model)
    kv, t = ref_hooks.load(model)
    for name, text in (('short', SHORT), ('long', LONG)):
        ids = tokens_for(text, meta)
        H = ref_hooks.forward(kv, t, np.array(ids))
        if len(sys.argv) == 3:  # a folder for the full logits (float32), to check the summaries
            np.save(os.path.join(sys.argv[2], f'gemma3_{name}.logits.npy'), H['logits'].astype(np.float32))
        out, pairs = summary(name, text, ids, H, with_hooks=name == 'short')
        with open(os.path.join(here, f'gemma3_{name}.json'), 'w', encoding='utf-8') as f:
            json.dump(out, f, separators=(',', ':'))
            f.write('\n')
        pairs.astype('<f4').tofile(os.path.join(here, f'gemma3_{name}.logits.f32'))
        del H
    with open(os.path.join(here, 'gemma3_greedy.json'), 'w', encoding='utf-8') as f:
        json.dump(greedy(kv, t, meta), f, indent=1)
        f.write('\n')


if __name__ == '__main__':
    main()

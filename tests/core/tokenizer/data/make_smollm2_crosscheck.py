#!/usr/bin/env python3
"""Writes smollm2_crosscheck.jsonl: text -> token ids for the SmolLM2 sample model's tokenizer,
computed by an independent implementation (the Hugging Face `tokenizers` package), so that
test_sample_tokenizer can hold lmscope's byte-level BPE to it.

The tokenizer is rebuilt from the GGUF itself (tokens and merges read here with a minimal GGUF
reader): BPE over the byte-level alphabet with the SmolLM2 pre-tokenizer (each digit alone,
then the GPT-2 expression), no added prefix space. Texts carry no special-token text.

Usage: pip install tokenizers==0.23.3
       python3 make_smollm2_crosscheck.py ../../../../sample_models/SmolLM2-135M-Instruct.Q4_1.gguf
"""
import json
import sys

from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers

from crosscheck_common import read_gguf_metadata, texts


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    meta = read_gguf_metadata(sys.argv[1])
    assert meta['tokenizer.ggml.model'] == 'gpt2' and meta['tokenizer.ggml.pre'] == 'smollm'
    tokens = meta['tokenizer.ggml.tokens']
    vocab = {t: i for i, t in enumerate(tokens)}
    merges = [tuple(m.split(' ', 1)) for m in meta['tokenizer.ggml.merges']]
    tok = Tokenizer(models.BPE(vocab=vocab, merges=merges))
    gpt2 = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)"""
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Digits(individual_digits=True),
        pre_tokenizers.Split(Regex(gpt2), behavior='isolated'),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])
    tok.decoder = decoders.ByteLevel()
    rows = texts()
    assert len(rows) >= 100
    with open('smollm2_crosscheck.jsonl', 'w', encoding='utf-8') as f:
        for text in rows:
            ids = tok.encode(text, add_special_tokens=False).ids
            assert tok.decode(ids) == text, text
            f.write(json.dumps({'text': text, 'ids': ids}, ensure_ascii=True) + '\n')
    print(len(rows), 'strings written')


if __name__ == '__main__':
    main()

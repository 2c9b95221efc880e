"""What the tokenizer cross-check scripts share (make_smollm2_crosscheck.py,
make_gemma3_crosscheck.py): a minimal GGUF metadata reader and the table of test strings
(English, code, numbers, Chinese and other scripts, emoji, whitespace runs, misspellings).
"""
import struct


def read_gguf_metadata(path):
    scalar = {0: 'B', 1: 'b', 2: 'H', 3: 'h', 4: 'I', 5: 'i', 6: 'f', 7: '?', 10: 'Q', 11: 'q', 12: 'd'}
    with open(path, 'rb') as f:
        def rd(fmt):
            fmt = '<' + fmt
            return struct.unpack(fmt, f.read(struct.calcsize(fmt)))

        def rs():
            (n,) = rd('Q')
            return f.read(n).decode('utf-8')

        def value(t):
            if t == 8:
                return rs()
            if t == 9:
                et, n = rd('IQ')
                return [value(et) for _ in range(n)]
            return rd(scalar[t])[0]

        if f.read(4) != b'GGUF':
            raise SystemExit(path + ': not a GGUF file')
        _version, _n_tensors, n_kv = rd('IQQ')
        meta = {}
        for _ in range(n_kv):
            key = rs()
            (t,) = rd('I')
            meta[key] = value(t)
        return meta


def texts():
    out = [
        "Hello world", "Hello, world!", " Hello world", "The quick brown fox jumps over the lazy dog.",
        "I've been 'told he's there, 'RE you sure? 'M not sure I'll make it, 'D you like some tea?",
        "What is the capital of France?", "Tokenization is the first step of every language model.",
        "A misspelling turns one token into three.", "Don't panic.", "e.g. i.e. etc. Mr. Smith",
        "def main():\n    print(\"hi\")\n    return 0\n", "for (int i = 0; i < n; ++i) { sum += a[i]; }",
        "#include <stdio.h>\nint main(void) { return 0; }", "x = [1, 2, 3]\ny = {'a': 1}",
        "SELECT * FROM users WHERE id = 42;", "git commit -m \"fix: off-by-one\"",
        "https://example.com/path?query=1&b=2", "user@example.org", "C:\\Users\\name\\file.txt",
        "3", "33", "333", "3333", "12345678", "3.14159", "1,000,000", "-42", "1e-5", "0x1F",
        "2024-01-31 12:34:56", "$19.99", "50%", "1/2 + 3/4",
        "\u4f60\u597d\uff0c\u4e16\u754c", "\u6211\u60f3\u5728apple\u5de5\u4f5c1314151\u5929\uff5e",
        "\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8", "\ud55c\uad6d\uc5b4 \ud14d\uc2a4\ud2b8",
        "\u0417\u0434\u0440\u0430\u0432\u0441\u0442\u0432\u0443\u0439, \u043c\u0438\u0440",
        "\u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645",
        "\u0928\u092e\u0938\u094d\u0924\u0947 \u0926\u0941\u0928\u093f\u092f\u093e", "\u1780\u17b6\u1793\u17cb\u178f\u17c2",
        "Caf\u00e9 na\u00efve r\u00e9sum\u00e9", "F\u00fchrer", "C\u1ed9t Vi\u1ec7t",
        "e\u0301 a\u0300 o\u0302 (combining marks)", "\U0001F680 (normal) \U0001F636\u200d\U0001F32B\ufe0f (joined)",
        "\U0001F999\U0001F999 llamas", "\u2705 done", "\U0001F1EB\U0001F1F7 flag", "\U0001F44D\U0001F3FD",
        "", " ", "  ", "   ", "\t", "\n", "\n\n", "\n\n\n", "\t\n", "   Hello", "    Hello\n    Hello",
        " \n \n\n \t \t\t \t\n  \n   \n    \n     ", "a" + " " * 40 + "b", "\n" * 30 + "end",
        "line one\r\nline two\r\n", "\u00a0non-breaking\u00a0space", "\u2003em\u2003space\u3000ideographic",
        "zero\u200bwidth", "!!!!!!", "??????", "......", "''''''```````\"\"\"\"", "------=======",
        "<html><body>Hi</body></html>", "{\"key\": [true, false, null]}", "a" * 300,
        "supercalifragilisticexpialidocious", "pneumonoultramicroscopicsilicovolcanoconiosis",
    ]
    words = ["receive", "definitely", "separate", "occasionally", "necessary", "government",
             "beginning", "tomorrow", "weird", "accommodate"]
    wrong = ["recieve", "definately", "seperate", "occasionaly", "neccessary", "goverment",
             "begining", "tommorow", "wierd", "acommodate"]
    for right, bad in zip(words, wrong):
        out += [right, " " + right, bad, " " + bad, "I will " + bad + " do it."]
    return out

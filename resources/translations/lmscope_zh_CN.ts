<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>EngineChange</name>
    <message>
        <source>Restart the engine?</source>
        <translation>重启引擎？</translation>
    </message>
    <message numerus="yes">
        <source>This setting restarts the engine with a new KV cache. The session holds %n token(s): run them again on the new engine (the same tokens, recomputed), or start empty?</source>
        <translation>
            <numerusform>这个设置会用新的 KV 缓存重启引擎。会话中有 %n 个词元：在新引擎上重新运行它们（同样的词元，重新计算），还是从空开始？</numerusform>
        </translation>
    </message>
    <message>
        <source>Re-run the session</source>
        <translation>重新运行会话</translation>
    </message>
    <message>
        <source>Start empty</source>
        <translation>从空开始</translation>
    </message>
    <message>
        <source>Keep the old setting</source>
        <translation>保留原设置</translation>
    </message>
</context>
<context>
    <name>Export</name>
    <message>
        <source>%1: could not render the image</source>
        <translation>%1：无法渲染图像</translation>
    </message>
    <message>
        <source>%1: no chart to save</source>
        <translation>%1：没有可保存的图表</translation>
    </message>
    <message>
        <source>%1: nothing to save</source>
        <translation>%1：没有可保存的内容</translation>
    </message>
</context>
<context>
    <name>KvLab</name>
    <message>
        <source>fp16</source>
        <translation>fp16</translation>
    </message>
    <message>
        <source>int8 (q8_0)</source>
        <translation>int8 (q8_0)</translation>
    </message>
    <message>
        <source>int4 (q4_0)</source>
        <translation>int4 (q4_0)</translation>
    </message>
    <message>
        <source>%1 GB</source>
        <translation>%1 GB</translation>
    </message>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
</context>
<context>
    <name>PanelHelp</name>
    <message>
        <source>Tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>The model never reads letters or words: the tokenizer cuts the text into &lt;b&gt;tokens&lt;/b&gt;, pieces of words that each have a number (an id) in a fixed vocabulary. Each chip is one token, prompt and generated tokens in different colours, spaces and newlines drawn so you can see them. Press Step to run the model one token at a time, and click a chip to pick the row the attention views show.</source>
        <translation>模型从不读字母或单词：分词器把文字切成&lt;b&gt;词元&lt;/b&gt;，也就是词的片段，每个片段在固定的词表里有一个编号（id）。每个小块是一个词元，提示词和生成的词元颜色不同，空格和换行也会画出来让你看见。按“单步”让模型一次运行一个词元，点击一个小块来选择注意力视图显示的那一行。</translation>
    </message>
    <message>
        <source>Each chip is one token, a piece the model really reads. Click one to see what it attends to.</source>
        <translation>每个小块是一个词元，也就是模型真正读到的片段。点击一个，看看它关注什么。</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>Attention is how a token gathers information from the tokens before it. Each token asks a question (its &lt;b&gt;query&lt;/b&gt;), every earlier token offers a label (its &lt;b&gt;key&lt;/b&gt;) and content (its &lt;b&gt;value&lt;/b&gt;): the query is compared with every key, &lt;b&gt;softmax&lt;/b&gt; turns the scores into weights that add up to 1, and the token takes that mix of values. A row is the token asking, a column the token looked at, darker means more weight; the upper triangle is the future, masked because a token may not look ahead.</source>
        <translation>注意力是一个词元从它前面的词元收集信息的方式。每个词元提出一个问题（它的&lt;b&gt;查询&lt;/b&gt;，query），前面的每个词元给出一个标签（它的&lt;b&gt;键&lt;/b&gt;，key）和内容（它的&lt;b&gt;值&lt;/b&gt;，value）：查询与每个键比较，&lt;b&gt;softmax&lt;/b&gt; 把这些分数变成加起来等于 1 的权重，词元按这些权重把值混合起来。一行是提问的词元，一列是被看的词元，颜色越深权重越大；右上三角是“未来”，被遮住，因为词元不能往后看。</translation>
    </message>
    <message>
        <source>Row: the token asking; column: the token it looks at; darker: more attention.</source>
        <translation>行：提问的词元；列：它看向的词元；颜色越深，注意力越多。</translation>
    </message>
    <message>
        <source>Attention Grid</source>
        <translation>注意力网格</translation>
    </message>
    <message>
        <source>Every layer and head at once. Click a thumbnail to open it in the Attention panel.</source>
        <translation>一次看到所有层和头。点击一个缩略图，在“注意力”面板中打开它。</translation>
    </message>
    <message>
        <source>Logits</source>
        <translation>Logits（对数几率）</translation>
    </message>
    <message>
        <source>After the last layer the model gives every token of its vocabulary a score, a &lt;b&gt;logit&lt;/b&gt;; softmax turns the scores into the probabilities of the next token. The sampling settings then reshape or cut that list and one token is drawn from what is left. The bars show the best candidates before and after the filters; click one to force that token and see where the text goes instead.</source>
        <translation>在最后一层之后，模型给词表中的每个词元打一个分数，叫作 &lt;b&gt;logit&lt;/b&gt;；softmax 把这些分数变成下一个词元的概率。采样设置再改变这份列表或截掉其中一部分，然后从剩下的词元中抽出一个。条形图显示筛选前后最好的候选；点击一个可以强制选它，看看文本会走向哪里。</translation>
    </message>
    <message>
        <source>The candidates for the next token and their chances. Click one to force it.</source>
        <translation>下一个词元的候选和它们的概率。点击一个来强制选择它。</translation>
    </message>
    <message>
        <source>KV Cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>So that it does not recompute the past at every step, the model keeps the keys and values of every token it has seen: the &lt;b&gt;KV cache&lt;/b&gt;. The prompt fills it in one go (prefill), then each new token adds one entry per layer (decode). The chart shows the bytes it holds as the tokens grow, measured and from the formula 2 × layers × KV heads × head size × tokens × bytes.</source>
        <translation>为了不在每一步都重新计算过去，模型保存了它见过的每个词元的键和值：这就是 &lt;b&gt;KV 缓存&lt;/b&gt;。提示词一次性把它填满（预填充），之后每个新词元在每一层添加一项（解码）。图表显示随着词元增加它占用的字节数，包括实测值和按公式 2 × 层数 × KV 头数 × 头维度 × 词元数 × 字节数 算出的值。</translation>
    </message>
    <message>
        <source>The memory holding the keys and values of every token so far: it grows with each step.</source>
        <translation>保存到目前为止每个词元的键和值的内存：它每一步都在增长。</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Each step of the loop is one bar. The first, &lt;b&gt;prefill&lt;/b&gt;, reads the whole prompt at once; every &lt;b&gt;decode&lt;/b&gt; step after it adds one token, reusing the KV cache. Hover a bar for its time, and click one to go back to that step and try something else.</source>
        <translation>循环的每一步是一根条。第一步是&lt;b&gt;预填充&lt;/b&gt;，一次读完整个提示词；之后每个&lt;b&gt;解码&lt;/b&gt;步骤添加一个词元，并复用 KV 缓存。把鼠标停在一根条上可以看到它的用时，点击一根条可以回到那一步，换个做法再试。</translation>
    </message>
    <message>
        <source>One bar per step: the prefill, then one decode step per token. Click a step to go back.</source>
        <translation>每一步一根条：先是预填充，然后每个词元一个解码步骤。点击一步可以回到那里。</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>The shape of the loaded model: how many layers, how many attention heads and KV heads, how long each token&apos;s vector is, the vocabulary size and how the weights are stored. These numbers decide how much work each token costs and how fast the KV cache grows.</source>
        <translation>已加载模型的形状：有多少层、多少注意力头和 KV 头、每个词元的向量有多长、词表有多大，以及权重如何存储。这些数字决定了每个词元要花多少计算，以及 KV 缓存增长得多快。</translation>
    </message>
    <message>
        <source>The model&apos;s size and shape: layers, heads, vocabulary.</source>
        <translation>模型的大小和形状：层数、头数、词表。</translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation>采样</translation>
    </message>
    <message>
        <source>These settings decide how the next token is picked from the probabilities. A &lt;b&gt;temperature&lt;/b&gt; below 1 makes the likely tokens even likelier, above 1 flattens the odds; &lt;b&gt;top-k&lt;/b&gt; keeps the k best, &lt;b&gt;top-p&lt;/b&gt; the fewest whose chances add up to p, &lt;b&gt;min-p&lt;/b&gt; drops tokens far less likely than the best. The seed fixes the random draw, so a run can be repeated.</source>
        <translation>这些设置决定如何根据概率挑选下一个词元。&lt;b&gt;温度&lt;/b&gt;低于 1 会让本来可能的词元更加可能，高于 1 会让机会更平均；&lt;b&gt;top-k&lt;/b&gt; 保留最好的 k 个，&lt;b&gt;top-p&lt;/b&gt; 保留概率加起来达到 p 的最少几个，&lt;b&gt;min-p&lt;/b&gt; 去掉比最好的那个可能性小得多的词元。随机种子固定随机抽取，这样一次运行可以重复。</translation>
    </message>
    <message>
        <source>How the next token is picked. Change the temperature and watch the Logits panel.</source>
        <translation>下一个词元是怎么挑出来的。改变温度，看看 Logits 面板的变化。</translation>
    </message>
    <message>
        <source>Tensors and Metadata</source>
        <translation>张量和元数据</translation>
    </message>
    <message>
        <source>A model file is a set of named weight matrices (&lt;b&gt;tensors&lt;/b&gt;) and settings (&lt;b&gt;metadata&lt;/b&gt;). Each tensor shows its name, shape and storage type; quantized types such as Q4_1 keep each number in about 5 bits to save memory. The metadata holds what the engine reads to run the model: the layer and head counts, the tokenizer&apos;s vocabulary, the chat template.</source>
        <translation>模型文件是一组有名字的权重矩阵（&lt;b&gt;张量&lt;/b&gt;）和设置（&lt;b&gt;元数据&lt;/b&gt;）。每个张量显示它的名字、形状和存储类型；Q4_1 这样的量化类型用大约 5 位来存每个数，以节省内存。元数据保存引擎运行模型时要读的内容：层数和头数、分词器的词表、聊天模板。</translation>
    </message>
    <message>
        <source>What the model file holds: its weight matrices and its settings.</source>
        <translation>模型文件里有什么：它的权重矩阵和设置。</translation>
    </message>
    <message>
        <source>Tokenizer lab</source>
        <translation>分词器实验室</translation>
    </message>
    <message>
        <source>Each tokenizer learned its own vocabulary of pieces (&lt;b&gt;BPE&lt;/b&gt; merges frequent pairs, Unigram keeps likely pieces, WordPiece builds words from parts), so the same text splits differently. Compare the splits side by side, train a tokenizer yourself at a chosen vocabulary size, and see how a misspelling breaks a word into more, rarer pieces and changes what the model predicts next.</source>
        <translation>每个分词器都学到了自己的片段词表（&lt;b&gt;BPE&lt;/b&gt; 合并常见的相邻片段，Unigram 保留可能的片段，WordPiece 用词的部分拼出单词），所以同一段文字会被切得不一样。并排比较这些切分，用选定的词表大小自己训练一个分词器，再看看拼写错误怎样把一个词拆成更多、更少见的片段，并改变模型对下一个词的预测。</translation>
    </message>
    <message>
        <source>One text, several tokenizers: compare how many pieces each one makes.</source>
        <translation>一段文字，几个分词器：比较每个切出多少片段。</translation>
    </message>
    <message>
        <source>KV cache lab</source>
        <translation>KV 缓存实验室</translation>
    </message>
    <message>
        <source>The KV cache keeps a key and a value for every layer, KV head and token, so it takes 2 × layers × KV heads × head size × tokens × bytes per number. Try real models, long contexts, fewer KV heads (GQA, MQA) and smaller number formats, and see what fits in a memory budget. The experiment measures what a smaller cache changes in the model&apos;s predictions.</source>
        <translation>KV 缓存为每一层、每个 KV 头和每个词元保存一个键和一个值，所以它占用 2 × 层数 × KV 头数 × 头维度 × 词元数 × 每个数的字节数。试试真实的模型、很长的上下文、更少的 KV 头（GQA、MQA）和更小的数字格式，看看什么能放进内存预算。实验测量更小的缓存会让模型的预测改变多少。</translation>
    </message>
    <message>
        <source>How large the KV cache gets: pick a model and a context length.</source>
        <translation>KV 缓存会变得多大：选一个模型和一个上下文长度。</translation>
    </message>
    <message>
        <source>Chat lab</source>
        <translation>聊天实验室</translation>
    </message>
    <message>
        <source>The model remembers nothing between turns: each reply is computed from the whole conversation, which is sent again every turn through the chat template. The highlighted tokens were already sent before; the chart shows how many tokens each turn had to prefill, with and without reusing the cached prefix.</source>
        <translation>模型在两轮对话之间什么也不记得：每个回答都是根据整段对话算出来的，每一轮都通过聊天模板把整段对话重新发送一次。高亮的词元以前已经发送过；图表显示每一轮需要预填充多少词元，分别是复用和不复用已缓存前缀的情况。</translation>
    </message>
    <message>
        <source>Every turn sends the whole conversation again: watch the prefill grow.</source>
        <translation>每一轮都重新发送整段对话：看着预填充越来越多。</translation>
    </message>
    <message>
        <source>Context compare lab</source>
        <translation>上下文对比实验室</translation>
    </message>
    <message>
        <source>A word takes its meaning from its neighbours: &quot;bank&quot; by a river and &quot;bank&quot; in an account start as the same token, but attention mixes different context into each. Compare that token&apos;s attention layer by layer and head by head, and how far apart the two next-token predictions are (&lt;b&gt;KL&lt;/b&gt;).</source>
        <translation>一个词的意思来自它的邻居：河边的“bank”（河岸）和账户里的“bank”（银行）一开始是同一个词元，但注意力给它们混入了不同的上下文。逐层、逐头比较这个词元的注意力，以及两个下一个词元的预测相差多远（&lt;b&gt;KL&lt;/b&gt; 散度）。</translation>
    </message>
    <message>
        <source>One word in two sentences: see how the context changes what it attends to.</source>
        <translation>一个词放在两个句子里：看上下文怎样改变它关注的东西。</translation>
    </message>
    <message>
        <source>Logit lens lab</source>
        <translation>Logit 透镜实验室</translation>
    </message>
    <message>
        <source>The prediction is built up layer by layer. The &lt;b&gt;logit lens&lt;/b&gt; reads the token&apos;s vector after every layer as if it were the last one and shows the tokens it would predict there: early layers guess vaguely, and you can watch the final answer climb to the top.</source>
        <translation>预测是一层一层建立起来的。&lt;b&gt;logit 透镜&lt;/b&gt;把每一层之后的词元向量当作最后一层来读，显示模型在那里会预测的词元：前面的层猜得很模糊，你可以看着最终答案一步步升到最上面。</translation>
    </message>
    <message>
        <source>What would the model say if it stopped at this layer?</source>
        <translation>如果模型在这一层就停下，它会说什么？</translation>
    </message>
    <message>
        <source>Every layer has several attention &lt;b&gt;heads&lt;/b&gt; working side by side, each with its own queries and keys, so each can look for something different: the previous token, the first token, a matching word. The grid shows every layer (rows) and head (columns) as a small heatmap; click one to open it in the Attention panel. Heads marked in the same colour share one key/value head (&lt;b&gt;GQA&lt;/b&gt;), which makes the KV cache smaller. Right-click a head to switch it off: the next steps run without it (its output is zero) and the grid crosses it out, so you can watch the prediction change.</source>
        <translation>每一层都有几个注意力&lt;b&gt;头&lt;/b&gt;并排工作，每个头有自己的查询和键，所以各自可以寻找不同的东西：前一个词元、第一个词元、一个相配的词。网格把每一层（行）和每个头（列）画成一个小热力图；点击一个，就在“注意力”面板中打开它。用同一种颜色标出的头共用一个键/值头（&lt;b&gt;GQA&lt;/b&gt;），这让 KV 缓存更小。右键点击一个头可以关闭它：之后的步骤不再使用它（它的输出为零），网格会把它划掉，你可以看到预测如何变化。</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层内部</translation>
    </message>
    <message>
        <source>Query, key, value, scores, RoPE and the FFN of the selected layer, head and token.</source>
        <translation>所选层、头和词元的查询、键、值、分数、RoPE 和前馈网络。</translation>
    </message>
    <message>
        <source>What one layer does to the selected token, with the model&apos;s real numbers: from the token&apos;s vector each head makes a &lt;b&gt;query&lt;/b&gt; (what it is looking for), a &lt;b&gt;key&lt;/b&gt; (what it offers) and a &lt;b&gt;value&lt;/b&gt; (what it carries). The query is multiplied with every key, scaled, the future is masked and &lt;b&gt;softmax&lt;/b&gt; turns the scores into weights that mix the values; &lt;b&gt;RoPE&lt;/b&gt; first turns q and k by their positions, so the score depends on the distance between tokens. Then the &lt;b&gt;feed-forward network&lt;/b&gt; works on the token alone, and both parts add their results to the &lt;b&gt;residual stream&lt;/b&gt;. Pick the token, layer and head in the other panels.</source>
        <translation>一层对所选词元做了什么，用的是模型真实的数字：每个头从词元的向量算出&lt;b&gt;查询&lt;/b&gt;（它在找什么）、&lt;b&gt;键&lt;/b&gt;（它能提供什么）和&lt;b&gt;值&lt;/b&gt;（它携带什么）。查询与每个键相乘、缩放，未来被遮住，&lt;b&gt;softmax&lt;/b&gt; 把分数变成混合这些值的权重；在此之前 &lt;b&gt;RoPE&lt;/b&gt; 按位置旋转 q 和 k，使分数取决于词元之间的距离。然后&lt;b&gt;前馈网络&lt;/b&gt;单独处理这个词元，两部分都把结果加到&lt;b&gt;残差流&lt;/b&gt;上。在其他面板中选择词元、层和头。</translation>
    </message>
</context>
<context>
    <name>Stage</name>
    <message>
        <source>Text becomes tokens</source>
        <translation>文本变成词元</translation>
    </message>
    <message>
        <source>The model never sees letters: the text is split into tokens, and each token is a number (hover a chip for its id). ␣ marks a space that belongs to the token after it. Other tokenizers split the same text differently; type a misspelling such as “definately” and it breaks into more, rarer pieces.</source>
        <translation>模型看不到字母：文本被切成词元，每个词元是一个编号（把鼠标停在小块上可看到它的 id）。␣ 表示属于后一个词元的空格。其他分词器对同一段文本切得不一样；输入像“definately”这样的拼写错误，它会被拆成更多、更少见的片段。</translation>
    </message>
    <message>
        <source>Prefill: the prompt goes in</source>
        <translation>预填充：提示词进入模型</translation>
    </message>
    <message>
        <source>The first Step (Space) feeds the whole prompt at once: every token goes through every layer together, and the status bar counts the layers. Each layer keeps the keys and values of every token it has seen: the KV cache fills, by the same number of bytes for every token.</source>
        <translation>第一次单步（空格键）把整个提示词一次送入：所有词元一起经过每一层，状态栏会数出已完成的层。每一层都保存它见过的每个词元的键和值：KV 缓存随之填充，每个词元增加相同的字节数。</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>Each head of each layer decides, for every token, how much it reads each earlier token: one row of the heatmap. The hatched triangle is the future, which the model may not see. The grid shows every layer and head at once; heads coloured alike share one KV head (grouped-query attention).</source>
        <translation>每一层的每个头为每个词元决定它从之前每个词元读取多少：这就是热力图的一行。带斜线的三角形是未来，模型不能看到。网格同时显示所有层和头；颜色相同的头共用一个 KV 头（分组查询注意力）。</translation>
    </message>
    <message>
        <source>Inside one layer</source>
        <translation>一层之内</translation>
    </message>
    <message>
        <source>From the token&apos;s vector each head makes a query (what it looks for), a key (what it offers) and a value (what it carries). q · k for every key, scaled, masked and turned by softmax into weights that add up to 1: the heatmap&apos;s row. RoPE turns q and k by their position; the FFN works on each token alone, and both add their output to the residual stream.</source>
        <translation>每个头从词元的向量算出查询（它在找什么）、键（它提供什么）和值（它携带什么）。对每个键计算 q · k，经过缩放和掩码，再由 softmax 变成加起来等于 1 的权重：正是热力图的那一行。RoPE 按位置旋转 q 和 k；前馈网络单独处理每个词元，两者都把输出加到残差流上。</translation>
    </message>
    <message>
        <source>The next token</source>
        <translation>下一个词元</translation>
    </message>
    <message>
        <source>After the last layer every token of the vocabulary gets a score, and softmax turns the scores into probabilities. Temperature, top-k and top-p reshape and cut the list before one token is drawn; at temperature 0 the top one is always taken. Click another candidate to force it: the story branches.</source>
        <translation>最后一层之后，词表中的每个词元都得到一个分数，softmax 把分数变成概率。温度、top-k 和 top-p 在抽出一个词元之前改变并截短这份列表；温度为 0 时总是取第一名。点击另一个候选可以强制选它：故事就此分叉。</translation>
    </message>
    <message>
        <source>Decode: one token at a time</source>
        <translation>解码：一次一个词元</translation>
    </message>
    <message>
        <source>Each Step now feeds one token: it reads the keys and values of every earlier token from the cache instead of computing them again. The new token is appended and the loop starts again. Compare the long prefill with the short decode steps on the timeline.</source>
        <translation>现在每次单步只送入一个词元：它从缓存中读取之前每个词元的键和值，而不是重新计算。新词元被追加，循环再次开始。在时间线上比较很长的预填充和很短的解码步骤。</translation>
    </message>
    <message>
        <source>What the KV cache costs</source>
        <translation>KV 缓存的代价</translation>
    </message>
    <message>
        <source>The cache takes 2 × layers × KV heads × head size × tokens × bytes. Sharing KV heads (GQA), storing them in 8 or 4 bits, or keeping the oldest in host memory (offload) makes it smaller or cheaper. Gemma&apos;s local layers keep only the last 512 tokens (a sliding window): past it, only its global layers grow.</source>
        <translation>缓存占用 2 × 层数 × KV 头数 × 头维度 × 词元数 × 字节数。共用 KV 头（GQA）、用 8 位或 4 位存储，或把最早的词元放到主机内存（卸载），都能让它更小或更便宜。Gemma 的局部层只保留最后 512 个词元（滑动窗口）：超过之后，只有它的全局层还在增长。</translation>
    </message>
    <message>
        <source>The model remembers nothing</source>
        <translation>模型什么也不记得</translation>
    </message>
    <message>
        <source>A chat is the same loop: after each turn the whole conversation is sent again, through the chat template. The model keeps nothing between turns; its “memory” is the re-sent text, which grows with every turn. The cache can reuse what it has seen, but the model still reads all of it.</source>
        <translation>聊天是同一个循环：每一轮之后，整段对话都通过聊天模板重新发送。模型在两轮之间什么也不保留；它的“记忆”就是重新发送的文本，每一轮都在变长。缓存可以复用已经见过的部分，但模型仍要读取全部内容。</translation>
    </message>
</context>
<context>
    <name>TokenizerLab</name>
    <message>
        <source>id %1
piece %2
bytes %3..%4 of the text%5</source>
        <translation>ID %1
片段 %2
文本字节 %3..%4%5</translation>
    </message>
    <message>
        <source>
byte piece: part of a character</source>
        <translation>
字节片段：某个字符的一部分</translation>
    </message>
    <message>
        <source>byte-level BPE (merge list)</source>
        <translation>字节级 BPE（合并表）</translation>
    </message>
    <message>
        <source>byte-level BPE (tiktoken ranks)</source>
        <translation>字节级 BPE（tiktoken 排名）</translation>
    </message>
    <message>
        <source>SentencePiece BPE</source>
        <translation>SentencePiece BPE</translation>
    </message>
    <message>
        <source>SentencePiece Unigram</source>
        <translation>SentencePiece Unigram</translation>
    </message>
    <message>
        <source>WordPiece</source>
        <translation>WordPiece</translation>
    </message>
    <message>
        <source>
byte %1 of %2 of “%3”: chips %4–%5 spell it together</source>
        <translation>
“%3”共 %2 个字节，这是第 %1 个：第 %4–%5 个词元块一起拼出它</translation>
    </message>
</context>
<context>
    <name>lmscope::gui</name>
    <message>
        <source>Token “%1” (position %2) in layer %3, head %4</source>
        <translation>词元“%1”（位置 %2），第 %3 层，第 %4 个头</translation>
    </message>
    <message>
        <source>resid_pre: entering the layer</source>
        <translation>resid_pre：进入这一层</translation>
    </message>
    <message>
        <source>attn_in: after the norm</source>
        <translation>attn_in：归一化之后</translation>
    </message>
    <message>
        <source>q: what it is looking for</source>
        <translation>q：它在找什么</translation>
    </message>
    <message>
        <source>q after RoPE</source>
        <translation>RoPE 之后的 q</translation>
    </message>
    <message>
        <source>k: what it offers (KV head %1)</source>
        <translation>k：它能提供什么（KV 头 %1）</translation>
    </message>
    <message>
        <source>k after RoPE</source>
        <translation>RoPE 之后的 k</translation>
    </message>
    <message>
        <source>v: what it carries</source>
        <translation>v：它携带什么</translation>
    </message>
    <message>
        <source>k (after RoPE) and v of every token up to “%1”</source>
        <translation>直到“%1”的每个词元的 k（RoPE 之后）和 v</translation>
    </message>
    <message>
        <source>k of “%1” (%2)</source>
        <translation>“%1”的 k（%2）</translation>
    </message>
    <message>
        <source>v of “%1” (%2)</source>
        <translation>“%1”的 v（%2）</translation>
    </message>
    <message>
        <source>z = Σ w_j v_j: the largest terms, the rest, and the sum (head %1)</source>
        <translation>z = Σ w_j v_j：最大的几项、其余各项与总和（第 %1 个头）</translation>
    </message>
    <message>
        <source>%1 × v of “%2” (%3)</source>
        <translation>%1 × “%2”的 v（%3）</translation>
    </message>
    <message>
        <source>+ the other terms</source>
        <translation>+ 其余各项</translation>
    </message>
    <message>
        <source>= z, the head&apos;s output</source>
        <translation>= z，这个头的输出</translation>
    </message>
    <message>
        <source>What each head writes: |Wo · z_h| (before the post-attention norm)</source>
        <translation>每个头写入的量：|Wo · z_h|（注意力后归一化之前）</translation>
    </message>
    <message>
        <source>What each head writes into attn_out: |Wo · z_h|</source>
        <translation>每个头写入 attn_out 的量：|Wo · z_h|</translation>
    </message>
    <message>
        <source>norm</source>
        <translation>范数</translation>
    </message>
    <message>
        <source>H%1</source>
        <translation>H%1</translation>
    </message>
    <message>
        <source>The residual add: what the FFN writes into the stream</source>
        <translation>残差相加：前馈网络写入残差流的内容</translation>
    </message>
    <message>
        <source>resid_mid: after attention</source>
        <translation>resid_mid：注意力之后</translation>
    </message>
    <message>
        <source>+ mlp_out: the FFN writes</source>
        <translation>+ mlp_out：前馈网络写入</translation>
    </message>
    <message>
        <source>= resid_post: leaving the layer</source>
        <translation>= resid_post：离开这一层</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::EngineLoader</name>
    <message>
        <source>Prompt too long</source>
        <translation>提示词过长</translation>
    </message>
    <message numerus="yes">
        <source>The prompt is %Ln token(s) long, more than the context of %1 positions.</source>
        <translation>
            <numerusform>提示词有 %Ln 个词元，超过了 %1 个位置的上下文。</numerusform>
        </translation>
    </message>
    <message>
        <source>Raise the context to %1 positions (this model allows up to %2) and run the prompt? A larger context keeps more of the KV cache in memory.</source>
        <translation>将上下文提高到 %1 个位置（此模型最多允许 %2 个）并运行这个提示词吗？上下文越大，KV 缓存占用的内存越多。</translation>
    </message>
    <message>
        <source>Raise to %1 and Run</source>
        <translation>提高到 %1 并运行</translation>
    </message>
    <message>
        <source>This model allows a context of at most %1 positions: shorten the prompt.</source>
        <translation>此模型的上下文最多为 %1 个位置：请缩短提示词。</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::EngineWorker</name>
    <message>
        <source>No model is loaded.</source>
        <translation>尚未加载模型。</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>The prompt encodes to no tokens.</source>
        <translation>提示词编码后没有任何词元。</translation>
    </message>
    <message>
        <source>Nothing to decode yet: prefill a prompt first.</source>
        <translation>还没有可解码的内容：请先预填充提示词。</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <source>Loading the model</source>
        <translation>加载模型</translation>
    </message>
    <message>
        <source>Sampling settings</source>
        <translation>采样设置</translation>
    </message>
    <message>
        <source>Prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Forcing a token</source>
        <translation>强制指定词元</translation>
    </message>
    <message>
        <source>Rewind</source>
        <translation>回退</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>Saving the trace</source>
        <translation>保存跟踪</translation>
    </message>
    <message>
        <source>Opening the trace</source>
        <translation>打开跟踪</translation>
    </message>
    <message>
        <source>Re-running the session</source>
        <translation>重新运行会话</translation>
    </message>
    <message numerus="yes">
        <source>Re-running %n token(s) on the new engine…</source>
        <translation>
            <numerusform>正在新引擎上重新运行 %n 个词元…</numerusform>
        </translation>
    </message>
    <message>
        <source>Switching heads off</source>
        <translation>关闭注意力头</translation>
    </message>
    <message>
        <source>The shown step keeps its pick: the step after it fed that token. The new settings pick from the next step on; click a candidate to branch here.</source>
        <translation>显示的这一步保留它选出的词元：它的下一步已经用了这个词元。新的设置从下一步开始生效；点击一个候选词元即可在这里分支。</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::HelpWindow</name>
    <message>
        <source>Lesson</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>Glossary</source>
        <translation>术语表</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::JobRunner</name>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 失败：%2</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::LayerView</name>
    <message>
        <source>The layer could not be computed: %1</source>
        <translation>无法计算这一层：%1</translation>
    </message>
    <message>
        <source>Q, K, V</source>
        <translation>Q、K、V</translation>
    </message>
    <message>
        <source>Scores</source>
        <translation>分数</translation>
    </message>
    <message>
        <source>Mix</source>
        <translation>混合</translation>
    </message>
    <message>
        <source>RoPE</source>
        <translation>RoPE</translation>
    </message>
    <message>
        <source>FFN</source>
        <translation>前馈网络</translation>
    </message>
    <message>
        <source>Residual stream</source>
        <translation>残差流</translation>
    </message>
    <message>
        <source>The token&apos;s vector, and the query, key and value the layer makes of it</source>
        <translation>词元的向量，以及这一层由它算出的查询、键和值</translation>
    </message>
    <message>
        <source>From q · k to the attention weights, one stage at a time</source>
        <translation>从 q · k 到注意力权重，一次一个阶段</translation>
    </message>
    <message>
        <source>The head&apos;s output: the values mixed by the weights</source>
        <translation>头的输出：按权重混合的值</translation>
    </message>
    <message>
        <source>How rotary position embedding turns q and k by their positions</source>
        <translation>旋转位置编码如何按位置旋转 q 和 k</translation>
    </message>
    <message>
        <source>The feed-forward network working on the token alone</source>
        <translation>单独处理这个词元的前馈网络</translation>
    </message>
    <message>
        <source>How much each layer adds to the token&apos;s vector</source>
        <translation>每一层给词元的向量加了多少</translation>
    </message>
    <message>
        <source>Show k and v of every token up to this one</source>
        <translation>显示直到这个词元的每个词元的 k 和 v</translation>
    </message>
    <message>
        <source>Read this stream with the logit lens…</source>
        <translation>用 logit 透镜读这条残差流…</translation>
    </message>
    <message>
        <source>Opens Labs &gt; Logit lens on the text up to this token: what the model would predict if it stopped after each layer</source>
        <translation>在“实验室 &gt; Logit 透镜”中打开直到这个词元的文本：如果模型在每一层之后停下，它会预测什么</translation>
    </message>
    <message>
        <source>The Layer view computes from the model: a replay has none. Open the model (Back to Live Model) to look inside a layer.</source>
        <translation>“层内部”视图需要用模型来计算：回放没有模型。打开模型（回到实时模型）才能查看一层的内部。</translation>
    </message>
    <message>
        <source>Press Step: the view then shows the inside of the selected layer for the selected token and head.</source>
        <translation>按“单步”：视图随后显示所选词元和头在所选层内部的计算。</translation>
    </message>
    <message>
        <source>Computing layer %1 for “%2” (position %3)…</source>
        <translation>正在为“%2”（位置 %3）计算第 %1 层…</translation>
    </message>
    <message>
        <source>Layer %1, head %2 (reads KV head %3 of %4) · token “%5” at position %6 · step %7</source>
        <translation>第 %1 层，第 %2 个头（读取 %4 个 KV 头中的第 %3 个）· 词元“%5”，位置 %6 · 第 %7 步</translation>
    </message>
    <message>
        <source>The model is stepping: this view follows when the step is done (while playing, when Play stops).</source>
        <translation>模型正在单步运行：这一步完成后本视图会跟上（播放时，在停止播放后）。</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::LiveSource</name>
    <message>
        <source>Open a model (Ctrl+O) or a trace (Ctrl+Shift+O) first.</source>
        <translation>请先打开模型（Ctrl+O）或跟踪文件（Ctrl+Shift+O）。</translation>
    </message>
    <message>
        <source>The reply has ended; Reset to start again.</source>
        <translation>回复已结束；请重置后重新开始。</translation>
    </message>
    <message>
        <source>Type a prompt first: Step reads it, splits it into tokens and runs the model on them.</source>
        <translation>请先输入提示词：单步会读取它，把它切分成词元，再让模型处理这些词元。</translation>
    </message>
    <message>
        <source>The prompt has changed: this Step starts a new run from it.</source>
        <translation>提示词已更改：这一步将从新的提示词重新开始运行。</translation>
    </message>
    <message numerus="yes">
        <source>%1 / %Ln token(s)</source>
        <translation>
            <numerusform>%1 / %Ln 个词元</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n token(s)</source>
        <translation>
            <numerusform>%n 个词元</numerusform>
        </translation>
    </message>
    <message>
        <source>Tokens in the KV cache / the context limit in force (the model&apos;s own: %1)</source>
        <translation>KV 缓存中的词元数 / 当前的上下文上限（模型自身：%1）</translation>
    </message>
    <message>
        <source>%1 tokens/s</source>
        <translation>%1 词元/秒</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::MainWindow</name>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>Loaded %1 in %2 ms</source>
        <translation>已加载 %1，用时 %2 毫秒</translation>
    </message>
    <message>
        <source>Could not open %1</source>
        <translation>无法打开 %1</translation>
    </message>
    <message>
        <source>Cannot open model</source>
        <translation>无法打开模型</translation>
    </message>
    <message>
        <source>Could not open %1.</source>
        <translation>无法打开 %1。</translation>
    </message>
    <message>
        <source>About lmscope</source>
        <translation>关于 lmscope</translation>
    </message>
    <message>
        <source>&lt;h3&gt;lmscope %1&lt;/h3&gt;&lt;p&gt;Runs a language model one step at a time and shows what happens inside: tokens, attention, the KV cache, logits and sampling.&lt;/p&gt;&lt;p&gt;Built with Qt %2.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;lmscope %1&lt;/h3&gt;&lt;p&gt;逐步运行语言模型，展示其内部发生的一切：词元、注意力、KV 缓存、logits 与采样。&lt;/p&gt;&lt;p&gt;基于 Qt %2 构建。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Open Model…</source>
        <translation>打开模型(&amp;O)…</translation>
    </message>
    <message>
        <source>Open a GGUF model file</source>
        <translation>打开 GGUF 模型文件</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;About lmscope</source>
        <translation>关于 lmscope(&amp;A)</translation>
    </message>
    <message>
        <source>Tensors</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>Metadata</source>
        <translation>元数据</translation>
    </message>
    <message>
        <source>No model</source>
        <translation>未加载模型</translation>
    </message>
    <message>
        <source>Open a GGUF file (Ctrl+O) or drop one on this window.</source>
        <translation>打开一个 GGUF 文件（Ctrl+O），或将文件拖放到此窗口。</translation>
    </message>
    <message>
        <source>Open GGUF Model</source>
        <translation>打开 GGUF 模型</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>GGUF 模型 (*.gguf);;所有文件 (*)</translation>
    </message>
    <message>
        <source>No recent files</source>
        <translation>没有最近打开的文件</translation>
    </message>
    <message>
        <source>&amp;Clear Menu</source>
        <translation>清空菜单(&amp;C)</translation>
    </message>
    <message>
        <source>System Default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Saved the trace to %1</source>
        <translation>跟踪已保存到 %1</translation>
    </message>
    <message>
        <source>%1 (replay) — lmscope</source>
        <translation>%1（回放）— lmscope</translation>
    </message>
    <message>
        <source>Opened the trace %1: press Step (Space) to walk through it</source>
        <translation>已打开跟踪 %1：按“单步”（空格键）逐步查看</translation>
    </message>
    <message>
        <source>&amp;Session</source>
        <translation>会话(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Export Chart</source>
        <translation>导出图表(&amp;E)</translation>
    </message>
    <message>
        <source>Open &amp;Trace…</source>
        <translation>打开跟踪(&amp;T)…</translation>
    </message>
    <message>
        <source>Replay a saved trace without its model</source>
        <translation>不加载模型，回放已保存的跟踪</translation>
    </message>
    <message>
        <source>&amp;Save Trace…</source>
        <translation>保存跟踪(&amp;S)…</translation>
    </message>
    <message>
        <source>Chart as PNG…</source>
        <translation>图表另存为 PNG…</translation>
    </message>
    <message>
        <source>Chart as PDF…</source>
        <translation>图表另存为 PDF…</translation>
    </message>
    <message>
        <source>Data as CSV…</source>
        <translation>数据另存为 CSV…</translation>
    </message>
    <message>
        <source>Data as JSON…</source>
        <translation>数据另存为 JSON…</translation>
    </message>
    <message>
        <source>Open Trace</source>
        <translation>打开跟踪</translation>
    </message>
    <message>
        <source>lmscope traces (*.lmtrace *.safetensors);;All files (*)</source>
        <translation>lmscope 跟踪文件 (*.lmtrace *.safetensors);;所有文件 (*)</translation>
    </message>
    <message>
        <source>There is no live session to save.</source>
        <translation>没有可保存的实时会话。</translation>
    </message>
    <message>
        <source>Save Trace</source>
        <translation>保存跟踪</translation>
    </message>
    <message>
        <source>lmscope traces (*.lmtrace)</source>
        <translation>lmscope 跟踪文件 (*.lmtrace)</translation>
    </message>
    <message>
        <source>Engine error</source>
        <translation>引擎错误</translation>
    </message>
    <message>
        <source>The engine reported an error.</source>
        <translation>引擎报告了一个错误。</translation>
    </message>
    <message>
        <source>Export Chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>La&amp;bs</source>
        <translation>实验室(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Lesson</source>
        <translation>课程(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Glossary</source>
        <translation>术语表(&amp;G)</translation>
    </message>
    <message>
        <source>Token, BPE, head, GQA, RoPE, prefill, decode, KV cache, logit, temperature, top-k/top-p/min-p</source>
        <translation>词元、BPE、注意力头、GQA、RoPE、预填充、解码、KV 缓存、logit、温度、top-k/top-p/min-p</translation>
    </message>
    <message>
        <source>&amp;Tensors and Metadata</source>
        <translation>张量与元数据(&amp;T)</translation>
    </message>
    <message>
        <source>The model&apos;s tensor and metadata tables between the panels</source>
        <translation>在各面板之间显示模型的张量表和元数据表</translation>
    </message>
    <message>
        <source>Reset &amp;Layout</source>
        <translation>重置布局(&amp;L)</translation>
    </message>
    <message>
        <source>Every panel back in its place, sized for this window</source>
        <translation>每个面板回到原位，按此窗口的大小排布</translation>
    </message>
    <message>
        <source>An 18-minute lesson with the sample model, step by step</source>
        <translation>用示例模型一步一步讲完的 18 分钟课程</translation>
    </message>
    <message>
        <source>Open Sa&amp;mple Model</source>
        <translation>打开示例模型(&amp;M)</translation>
    </message>
    <message>
        <source>%1 (not fetched: run sample_models/fetch.sh)</source>
        <translation>%1（尚未下载：请运行 sample_models/fetch.sh）</translation>
    </message>
    <message>
        <source>%1: unknown export format (use %2)</source>
        <translation>%1：未知的导出格式（请使用 %2）</translation>
    </message>
    <message>
        <source>&amp;Stage Mode</source>
        <translation>讲解模式(&amp;S)</translation>
    </message>
    <message>
        <source>The lesson one stage at a time, large, for a projector (F11; Esc leaves)</source>
        <translation>按课程一段一段讲解，大字体，适合投影仪（F11；Esc 退出）</translation>
    </message>
    <message>
        <source>Leave Stage Mode</source>
        <translation>退出讲解模式</translation>
    </message>
    <message>
        <source>No chart is shown to export.</source>
        <translation>没有可导出的图表。</translation>
    </message>
    <message>
        <source>Export Chart: %1</source>
        <translation>导出图表：%1</translation>
    </message>
    <message>
        <source>Exported %1 to %2</source>
        <translation>已将%1导出到 %2</translation>
    </message>
    <message>
        <source>%1: no chart is shown to export</source>
        <translation>%1：没有可导出的图表</translation>
    </message>
    <message>
        <source>%1 has no table of numbers: export it as PNG or PDF</source>
        <translation>%1 没有数值表：请导出为 PNG 或 PDF</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::PanelGuide</name>
    <message>
        <source>&amp;What Am I Looking At?</source>
        <translation>我在看什么？(&amp;W)</translation>
    </message>
    <message>
        <source>Explains the panel or lab that has the keyboard focus (F1)</source>
        <translation>解释拥有键盘焦点的面板或实验室（F1）</translation>
    </message>
    <message>
        <source>Show Panel &amp;Hints Again</source>
        <translation>重新显示面板提示(&amp;H)</translation>
    </message>
    <message>
        <source>The one-line hint above each panel, as on the first run</source>
        <translation>像第一次运行时那样，在每个面板上方显示一行提示</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::PlayLoop</name>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Pause after the running step (P)</source>
        <translation>在当前这一步完成后暂停 (P)</translation>
    </message>
    <message>
        <source>Step repeatedly at the chosen speed (P)</source>
        <translation>按所选速度连续单步（P）</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::ReplaySource</name>
    <message>
        <source>End of the trace</source>
        <translation>跟踪已到末尾</translation>
    </message>
    <message>
        <source>Replay: %1</source>
        <translation>回放：%1</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>第 %1 步，共 %2 步</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::SampleModel</name>
    <message>
        <source>30 layers, 9 query heads sharing 3 KV heads (GQA): the model the lesson starts with</source>
        <translation>30 层，9 个查询头共用 3 个 KV 头（GQA）：课程开始时用的模型</translation>
    </message>
    <message>
        <source>18 layers, 4 query heads sharing one KV head, five of every six layers with a 512-token sliding window (Gemma Terms of Use)</source>
        <translation>18 层，4 个查询头共用一个 KV 头，每六层中有五层使用 512 个词元的滑动窗口（Gemma 使用条款）</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::SamplingPanel</name>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>Min-p</source>
        <translation>Min-p</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>线程数</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>后端</translation>
    </message>
    <message>
        <source>0 picks the most probable token (greedy)</source>
        <translation>0 表示总是选择概率最高的词元（贪心）</translation>
    </message>
    <message>
        <source>Keep the k most probable tokens (0 = off)</source>
        <translation>保留概率最高的 k 个词元（0 = 关闭）</translation>
    </message>
    <message>
        <source>Keep the smallest set whose probability reaches p (1 = off)</source>
        <translation>保留累计概率达到 p 的最小集合（1 = 关闭）</translation>
    </message>
    <message>
        <source>Drop tokens below min-p times the best one (0 = off)</source>
        <translation>丢弃概率低于最高概率 min-p 倍的词元（0 = 关闭）</translation>
    </message>
    <message>
        <source>all cores</source>
        <translation>全部核心</translation>
    </message>
    <message>
        <source>CPU threads (applied by reloading the model)</source>
        <translation>CPU 线程数（重新加载模型后生效）</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> 个词元</translation>
    </message>
    <message>
        <source>Positions the KV cache may hold: a longer prompt or chat is refused (applied by reloading the model; at most the model&apos;s own context of %1)</source>
        <translation>KV 缓存可容纳的位置数：更长的提示或对话会被拒绝（重新加载模型后生效；最多为模型自身的上下文长度 %1）</translation>
    </message>
    <message>
        <source>A full cache of %1 positions holds %2</source>
        <translation>存满 %1 个位置的缓存占用 %2</translation>
    </message>
    <message>
        <source>The saved KV cache type &apos;%1&apos; is not one of %2; the cache stores %3.</source>
        <translation>保存的 KV 缓存类型“%1”不在 %2 之中；缓存改用 %3。</translation>
    </message>
    <message>
        <source>KV offload</source>
        <translation>KV 卸载</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>Keep at most this much of the KV cache in memory: the older positions of the global layers go to a temporary file and are read back every step, with the same results (CPU backend; applied by reloading the model; off: all in memory)</source>
        <translation>内存中最多保留这么多 KV 缓存：全局层较早的位置写入临时文件，每一步再读回，结果完全相同（CPU 后端；重新加载模型后生效；关闭：全部留在内存）</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::SessionController</name>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>Ready: %1 on %2</source>
        <translation>就绪：%1，运行于 %2</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Prefill the prompt, then decode one token per step (Space)</source>
        <translation>先预填充提示词，之后每步解码一个词元（空格键）</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the running step (Esc)</source>
        <translation>停止正在运行的步骤（Esc）</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>Start a new session from the prompt: the KV cache emptied, every step and branch gone (Ctrl+R)</source>
        <translation>从提示词重新开始一个新会话：清空 KV 缓存，所有步骤和分支都会删除（Ctrl+R）</translation>
    </message>
    <message>
        <source>Back to &amp;Live Model</source>
        <translation>返回实时模型(&amp;L)</translation>
    </message>
    <message>
        <source>Leave the replay and step the model that was open before it again (Ctrl+Shift+L)</source>
        <translation>退出回放，继续单步运行回放前打开的模型（Ctrl+Shift+L）</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::SessionStatus</name>
    <message numerus="yes">
        <source>Prefill: layer %1 of %2 · %Ln token(s) · %3 s · %4 tokens/s · Stop (Esc) ends it</source>
        <translation>
            <numerusform>预填充：第 %1 / %2 层 · %Ln 个词元 · %3 秒 · 每秒 %4 个词元 · 停止（Esc）可中断</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lmscope::gui::SpecText</name>
    <message>
        <source>unknown architecture</source>
        <translation>未知架构</translation>
    </message>
    <message>
        <source>GGUF v%1</source>
        <translation>GGUF v%1</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>Transformer blocks, each with attention and a feed-forward network</source>
        <translation>Transformer 块的数量，每块包含注意力和前馈网络</translation>
    </message>
    <message>
        <source>Embedding width</source>
        <translation>嵌入维度</translation>
    </message>
    <message>
        <source>Numbers per token in the residual stream</source>
        <translation>残差流中每个词元的数值个数</translation>
    </message>
    <message>
        <source>Query heads</source>
        <translation>查询头</translation>
    </message>
    <message>
        <source>Attention heads per layer</source>
        <translation>每层的注意力头数</translation>
    </message>
    <message>
        <source>KV heads</source>
        <translation>KV 头</translation>
    </message>
    <message>
        <source>Key/value heads per layer; query heads share them</source>
        <translation>每层的键/值头数；查询头共享它们</translation>
    </message>
    <message>
        <source>MHA</source>
        <translation>MHA</translation>
    </message>
    <message>
        <source>Multi-head attention: every query head has its own keys and values</source>
        <translation>多头注意力：每个查询头都有自己的键和值</translation>
    </message>
    <message>
        <source>MQA</source>
        <translation>MQA</translation>
    </message>
    <message>
        <source>Multi-query attention: all query heads share one key/value head</source>
        <translation>多查询注意力：所有查询头共享一个键/值头</translation>
    </message>
    <message>
        <source>GQA %1:1</source>
        <translation>GQA %1:1</translation>
    </message>
    <message>
        <source>Grouped-query attention: %1 query heads share each key/value head</source>
        <translation>分组查询注意力：每 %1 个查询头共享一个键/值头</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>Head size</source>
        <translation>头维度</translation>
    </message>
    <message>
        <source>Numbers per query, key and value vector</source>
        <translation>每个查询、键、值向量的数值个数</translation>
    </message>
    <message>
        <source>Feed-forward width</source>
        <translation>前馈网络宽度</translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation>词表大小</translation>
    </message>
    <message>
        <source>Tokens the model knows</source>
        <translation>模型认识的词元数</translation>
    </message>
    <message>
        <source>Context length</source>
        <translation>上下文长度</translation>
    </message>
    <message>
        <source>Positions the model was trained for</source>
        <translation>模型训练时的位置数</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <source>Numbers in all tensors together</source>
        <translation>所有张量中数值的总个数</translation>
    </message>
    <message>
        <source>Tensors</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Bytes of tensor data (file: %1)</source>
        <translation>张量数据的字节数（文件：%1）</translation>
    </message>
    <message>
        <source>KV cache per token</source>
        <translation>每词元 KV 缓存</translation>
    </message>
    <message>
        <source>Keys and values of every layer for one token, stored as 16-bit floats</source>
        <translation>一个词元在所有层的键和值，以 16 位浮点数存储</translation>
    </message>
    <message>
        <source>RoPE base</source>
        <translation>RoPE 基数</translation>
    </message>
    <message>
        <source>RMS norm ε</source>
        <translation>RMS 归一化 ε</translation>
    </message>
    <message>
        <source>Tokenizer</source>
        <translation>分词器</translation>
    </message>
    <message>
        <source>lmscope can run this model</source>
        <translation>lmscope 可以运行此模型</translation>
    </message>
    <message>
        <source>Runs in lmscope</source>
        <translation>可在 lmscope 中运行</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>name in the file: %1</source>
        <translation>文件中的名称：%1</translation>
    </message>
    <message>
        <source>%1 heads × %2 ≠ width %3</source>
        <translation>%1 个头 × %2 ≠ 宽度 %3</translation>
    </message>
    <message>
        <source>q/k/v biases</source>
        <translation>q/k/v 偏置</translation>
    </message>
    <message>
        <source>QK-norm (each q and k head normalized)</source>
        <translation>QK 归一化（每个 q 和 k 头各自归一化）</translation>
    </message>
    <message>
        <source>RoPE on adjacent pairs, base %1</source>
        <translation>相邻维度对的 RoPE，基数 %1</translation>
    </message>
    <message>
        <source>NeoX RoPE (split halves), base %1</source>
        <translation>NeoX RoPE（前后两半配对），基数 %1</translation>
    </message>
    <message>
        <source>Llama 3 RoPE frequency factors</source>
        <translation>Llama 3 RoPE 频率因子</translation>
    </message>
    <message>
        <source>no RoPE on %1 of %2 layers</source>
        <translation>%2 层中有 %1 层不用 RoPE</translation>
    </message>
    <message>
        <source>window of %1 tokens on %2 of %3 layers (RoPE base %4)</source>
        <translation>%3 层中有 %2 层使用 %1 个词元的滑动窗口（RoPE 基数 %4）</translation>
    </message>
    <message>
        <source>window of %1 tokens on %2 of %3 layers</source>
        <translation>%3 层中有 %2 层使用 %1 个词元的滑动窗口</translation>
    </message>
    <message>
        <source>norms after attention and FFN too</source>
        <translation>注意力和前馈网络之后也有归一化</translation>
    </message>
    <message>
        <source>SwiGLU feed-forward</source>
        <translation>SwiGLU 前馈网络</translation>
    </message>
    <message>
        <source>GeGLU feed-forward (GELU, tanh)</source>
        <translation>GeGLU 前馈网络（GELU，tanh）</translation>
    </message>
    <message>
        <source>embeddings × √%1</source>
        <translation>嵌入 × √%1</translation>
    </message>
    <message>
        <source>logits soft-capped at %1</source>
        <translation>logits 软上限为 %1</translation>
    </message>
    <message>
        <source>Recipe</source>
        <translation>结构配方</translation>
    </message>
    <message>
        <source>What this architecture changes in the common transformer block</source>
        <translation>该架构对通用 Transformer 块所做的改动</translation>
    </message>
    <message>
        <source>lmscope runs %1 models with complete metadata</source>
        <translation>lmscope 可运行元数据完整的 %1 模型</translation>
    </message>
    <message>
        <source>attention scores soft-capped at %1</source>
        <translation>注意力分数软上限为 %1</translation>
    </message>
    <message>
        <source>fused q/k/v matrix</source>
        <translation>q/k/v 合并为一个矩阵</translation>
    </message>
    <message>
        <source>fused gate/up matrix</source>
        <translation>gate/up 合并为一个矩阵</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::StageView</name>
    <message>
        <source>‹ Back</source>
        <translation>‹ 上一段</translation>
    </message>
    <message>
        <source>Next ›</source>
        <translation>下一段 ›</translation>
    </message>
    <message>
        <source>Next Stage</source>
        <translation>下一段</translation>
    </message>
    <message>
        <source>Previous Stage</source>
        <translation>上一段</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>Token</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Page Down / → next stage · Page Up / ← back · Space steps · Esc leaves</source>
        <translation>Page Down / → 下一段 · Page Up / ← 上一段 · 空格键单步 · Esc 退出</translation>
    </message>
    <message>
        <source> (KV %1)</source>
        <translation>（KV %1）</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::StepControls</name>
    <message>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>Type a prompt, then press Step (Space) with the focus outside this box.</source>
        <translation>输入提示词，然后在此框外按“单步”（空格键）；在框内可按 Ctrl+Enter。</translation>
    </message>
    <message>
        <source>Play speed</source>
        <translation>播放速度</translation>
    </message>
    <message numerus="yes">
        <source>%n step(s)/s</source>
        <translation>
            <numerusform>每秒 %n 步</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lmscope::gui::StepSource</name>
    <message>
        <source>KV %1</source>
        <translation>KV %1</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::labs::BpeMergesView</name>
    <message>
        <source>id %1
piece %2</source>
        <translation>ID %1
片段 %2</translation>
    </message>
    <message>
        <source>%1 (not in the vocabulary)</source>
        <translation>%1（不在词表中）</translation>
    </message>
    <message>
        <source>Tokenizer:</source>
        <translation>分词器：</translation>
    </message>
    <message>
        <source>Word:</source>
        <translation>单词：</translation>
    </message>
    <message>
        <source>The tokenizer&apos;s own result for the word (after a space):</source>
        <translation>分词器对该单词（前面带空格）的实际切分结果：</translation>
    </message>
    <message>
        <source>Pick a tokenizer and type a word.</source>
        <translation>请选择一个分词器并输入一个单词。</translation>
    </message>
    <message>
        <source>No merges to replay: %1</source>
        <translation>没有可重放的合并：%1</translation>
    </message>
    <message>
        <source>Start: the characters</source>
        <translation>开始：单个字符</translation>
    </message>
    <message>
        <source>Step %1: merge “%2” + “%3” → “%4” (merge #%5)</source>
        <translation>第 %1 步：合并“%2” + “%3” → “%4”（合并规则 #%5）</translation>
    </message>
    <message numerus="yes">
        <source>%Ln merge(s) in %1</source>
        <translation>
            <numerusform>%1 共有 %Ln 条合并规则</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1; %n of them build(s) this word.</source>
        <translation>
            <numerusform>%1，其中 %n 条用于构成这个单词。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lmscope::gui::labs::ChatLab</name>
    <message>
        <source>Chat: no memory</source>
        <translation>聊天：没有记忆</translation>
    </message>
    <message>
        <source>Model: %1. Type a message and press Send.</source>
        <translation>模型：%1。输入一条消息，然后点击“发送”。</translation>
    </message>
    <message>
        <source>Open a model to chat.</source>
        <translation>请先打开模型再聊天。</translation>
    </message>
    <message>
        <source>This model has no chat template lmscope recognises, so the chat is plain &quot;User: ... Assistant: ...&quot; text: %1</source>
        <translation>此模型没有 lmscope 能识别的聊天模板，因此聊天使用纯文本格式“User: ... Assistant: ...”：%1</translation>
    </message>
    <message>
        <source>A new conversation: the cache is empty.</source>
        <translation>新对话：缓存为空。</translation>
    </message>
    <message>
        <source>Prefilling the whole conversation...</source>
        <translation>正在预填充整段对话…</translation>
    </message>
    <message>
        <source>Stopping...</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <source>Stopped before the reply began; the conversation is as it was.</source>
        <translation>在回复开始前已停止；对话保持原样。</translation>
    </message>
    <message numerus="yes">
        <source>Stopped after %n reply token(s).</source>
        <translation>
            <numerusform>已在回复 %n 个词元后停止。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The reply reached the maximum length (%n token(s)).</source>
        <translation>
            <numerusform>回复已达到最大长度（%n 个词元）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The model ended its turn after %n token(s).</source>
        <translation>
            <numerusform>模型在 %n 个词元后结束了本轮回复。</numerusform>
        </translation>
    </message>
    <message>
        <source>turn %1</source>
        <translation>第 %1 轮</translation>
    </message>
    <message>
        <source>The turn failed: %1</source>
        <translation>本轮失败：%1</translation>
    </message>
    <message>
        <source>You:</source>
        <translation>你：</translation>
    </message>
    <message>
        <source>turn %1: %2 tokens sent, %3 computed</source>
        <translation>第 %1 轮：发送 %2 个词元，计算 %3 个</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>maximum length</source>
        <translation>达到最大长度</translation>
    </message>
    <message>
        <source>Send a message: the whole token sequence the model receives appears here.</source>
        <translation>发送一条消息后，模型收到的完整词元序列会显示在这里。</translation>
    </message>
    <message>
        <source>kept in the cache (prefix reuse)</source>
        <translation>保留在缓存中（前缀复用）</translation>
    </message>
    <message>
        <source>an earlier turn, computed again</source>
        <translation>之前的轮次，重新计算</translation>
    </message>
    <message>
        <source>new this turn</source>
        <translation>本轮新增</translation>
    </message>
    <message>
        <source>position %1, id %2, %3</source>
        <translation>位置 %1，ID %2，%3</translation>
    </message>
    <message>
        <source>Turn %1 sent %2 tokens: %3 re-send the earlier turns, %4 are new. The engine computed %5 of them; %6 were kept in the cache.</source>
        <translation>第 %1 轮发送了 %2 个词元：其中 %3 个是重新发送的之前轮次，%4 个是新的。引擎计算了其中 %5 个；%6 个保留在缓存中。</translation>
    </message>
    <message>
        <source>No turns yet.</source>
        <translation>还没有对话轮次。</translation>
    </message>
    <message>
        <source>Tokens processed so far (prefill + %1 generated): %2 with prefix reuse, %3 without (reuse saves %4%).</source>
        <translation>到目前为止处理的词元数（预填充 + 生成的 %1 个）：使用前缀复用为 %2 个，不使用为 %3 个（复用节省 %4%）。</translation>
    </message>
    <message>
        <source>A language model keeps no memory between calls: all it ever sees is one token sequence. To &quot;remember&quot; a conversation, the chat app renders the whole history with the model&apos;s chat template and sends all of it again every turn, so each turn costs more than the last. Prefix reuse keeps the part of the sequence the KV cache already holds and computes only the rest; the model still reads the whole history.</source>
        <translation>语言模型在两次调用之间不保留任何记忆：它每次看到的只是一个词元序列。为了“记住”对话，聊天应用会用模型的聊天模板渲染整段历史，并在每一轮把它全部重新发送，因此每一轮的开销都比上一轮更大。前缀复用会保留 KV 缓存中已有的那部分序列，只计算其余部分；模型仍然会读取完整的历史。</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>New conversation</source>
        <translation>新对话</translation>
    </message>
    <message>
        <source>Prefix reuse (keep the cached history)</source>
        <translation>前缀复用（保留已缓存的历史）</translation>
    </message>
    <message>
        <source>Max reply tokens:</source>
        <translation>最大回复词元数：</translation>
    </message>
    <message>
        <source>Type a message</source>
        <translation>输入消息</translation>
    </message>
    <message>
        <source>Sequence the model received in:</source>
        <translation>显示模型收到的序列：</translation>
    </message>
    <message>
        <source>&lt;span style=&quot;background:%1&quot;&gt;&amp;nbsp;earlier turns, kept in the cache&amp;nbsp;&lt;/span&gt; &lt;span style=&quot;background:%2&quot;&gt;&amp;nbsp;earlier turns, computed again&amp;nbsp;&lt;/span&gt; &lt;span style=&quot;background:%3&quot;&gt;&amp;nbsp;new this turn&amp;nbsp;&lt;/span&gt; &lt;b style=&quot;color:#6a1b9a&quot;&gt;bold purple&lt;/b&gt;: the template&apos;s special tokens</source>
        <translation>&lt;span style=&quot;background:%1&quot;&gt;&amp;nbsp;之前的轮次，保留在缓存中&amp;nbsp;&lt;/span&gt; &lt;span style=&quot;background:%2&quot;&gt;&amp;nbsp;之前的轮次，重新计算&amp;nbsp;&lt;/span&gt; &lt;span style=&quot;background:%3&quot;&gt;&amp;nbsp;本轮新增&amp;nbsp;&lt;/span&gt; &lt;b style=&quot;color:#6a1b9a&quot;&gt;紫色粗体&lt;/b&gt;：模板的特殊词元</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::labs::ContextCompareLab</name>
    <message>
        <source>Context compare</source>
        <translation>上下文对比</translation>
    </message>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>Open a model to compare the two contexts.</source>
        <translation>请先打开模型，再比较两个上下文。</translation>
    </message>
    <message>
        <source>Running both prompts through %1…</source>
        <translation>正在用 %1 运行两个提示词…</translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>运行失败：%1</translation>
    </message>
    <message>
        <source>Stopped; the results of the last finished run stay.</source>
        <translation>已停止；保留上一次完成的运行结果。</translation>
    </message>
    <message>
        <source>Picked &apos;%1&apos; in A and &apos;%2&apos; in B: click a token to pick another, a grid cell for a layer and head.</source>
        <translation>已在 A 中选中“%1”，在 B 中选中“%2”：点击词元可改选其他词元，点击网格单元可选择层和头。</translation>
    </message>
    <message>
        <source>The same word in two contexts. Pick a token in each prompt: its attention row shows which earlier tokens it reads in a layer and head, the grids compare one measure of that row over every layer and head, and the bars below show what the model expects next.</source>
        <translation>同一个词出现在两个上下文中。在每个提示词中选一个词元：它的注意力行显示它在某层某个头中读取了哪些更早的词元；网格在所有层和头上比较该行的某一项度量；下方的条形图显示模型预期的下一个词元。</translation>
    </message>
    <message>
        <source>Prompt %1:</source>
        <translation>提示词 %1：</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>Grid:</source>
        <translation>网格：</translation>
    </message>
    <message>
        <source>attention entropy (nats)</source>
        <translation>注意力熵（奈特）</translation>
    </message>
    <message>
        <source>weight on the previous token</source>
        <translation>前一个词元上的权重</translation>
    </message>
    <message>
        <source>weight on the first token</source>
        <translation>第一个词元上的权重</translation>
    </message>
    <message>
        <source>weight on the token itself</source>
        <translation>词元自身上的权重</translation>
    </message>
    <message>
        <source>largest weight</source>
        <translation>最大权重</translation>
    </message>
    <message>
        <source>%1: attention row (no run yet)</source>
        <translation>%1：注意力行（尚未运行）</translation>
    </message>
    <message>
        <source>%1: what &apos;%2&apos; (position %3) reads
layer %4, head %5</source>
        <translation>%1：“%2”（位置 %3）读取的内容
第 %4 层，头 %5</translation>
    </message>
    <message>
        <source>attention weight</source>
        <translation>注意力权重</translation>
    </message>
    <message>
        <source>nats</source>
        <translation>奈特</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos;</source>
        <translation>%1：“%2”</translation>
    </message>
    <message>
        <source>%1: no run yet</source>
        <translation>%1：尚未运行</translation>
    </message>
    <message>
        <source>A − B</source>
        <translation>A − B</translation>
    </message>
    <message>
        <source>%1: next token (no run yet)</source>
        <translation>%1：下一个词元（尚未运行）</translation>
    </message>
    <message>
        <source>%1: next token after &apos;%2&apos;</source>
        <translation>%1：“%2”之后的下一个词元</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>概率</translation>
    </message>
    <message>
        <source>Next-token distributions: run both prompts to compare them.</source>
        <translation>下一个词元的分布：运行两个提示词即可比较。</translation>
    </message>
    <message>
        <source>Next-token distributions after the picked tokens (top %1; orange: in both lists). KL(A‖B) = %2 nats, KL(B‖A) = %3 nats (0: the same prediction).</source>
        <translation>所选词元之后的下一个词元分布（前 %1 个；橙色：两个列表中都有）。KL(A‖B) = %2 奈特，KL(B‖A) = %3 奈特（0 表示预测相同）。</translation>
    </message>
    <message>
        <source>L%1 H%2</source>
        <translation>L%1 H%2</translation>
    </message>
    <message numerus="yes">
        <source>Switching off each head of layer %1 in turn (%n run(s) of each prompt)…</source>
        <translation>
            <numerusform>正在依次关闭第 %1 层的每个头（每个提示词运行 %n 次）…</numerusform>
        </translation>
    </message>
    <message>
        <source>Which head makes the two picked tokens differ? Choose a layer and press &quot;%1&quot;: each of its heads is switched off in turn and both prompts run again.</source>
        <translation>是哪个头让两个选中的词元不同？选择一层并按“%1”：依次关闭它的每个头，两个提示词都重新运行。</translation>
    </message>
    <message>
        <source>KL(A ‖ B) between the next-token distributions after the picked tokens: %1 nats with every head on</source>
        <translation>选中词元之后的下一个词元分布之间的 KL(A ‖ B)：所有头都打开时为 %1 奈特</translation>
    </message>
    <message>
        <source>%1 nats with %2 switched off</source>
        <translation>关闭 %2 时为 %1 奈特</translation>
    </message>
    <message>
        <source>Each bar: the KL with head H of layer %1 switched off too; the shortest bar is the head whose absence makes the two contexts agree most.</source>
        <translation>每个条形：同时关闭第 %1 层的头 H 时的 KL；最短的条形对应的头，去掉它后两个上下文最一致。</translation>
    </message>
    <message>
        <source>Layer %1: KL(A ‖ B) with each head switched off</source>
        <translation>第 %1 层：依次关闭每个头时的 KL(A ‖ B)</translation>
    </message>
    <message>
        <source>KL (nats)</source>
        <translation>KL（奈特）</translation>
    </message>
    <message>
        <source>H%1 (%2%3)</source>
        <translation>H%1（%2%3）</translation>
    </message>
    <message>
        <source>Running both prompts through %1 with %2 switched off…</source>
        <translation>正在用 %1 运行两个提示词，关闭 %2…</translation>
    </message>
    <message>
        <source>Heads switched off in both runs: %1.</source>
        <translation>两次运行中都关闭的头：%1。</translation>
    </message>
    <message>
        <source>Switch off heads:</source>
        <translation>关闭的头：</translation>
    </message>
    <message>
        <source>layer:head, e.g. 3:5, 7:0 (both prompts run without them; empty: every head on)</source>
        <translation>层:头，例如 3:5, 7:0（两个提示词都在没有它们的情况下运行；留空：所有头都打开）</translation>
    </message>
    <message>
        <source>Heads switched off (their output zeroed before the output projection) when both prompts run</source>
        <translation>两个提示词运行时关闭的头（它们的输出在输出投影之前被置零）</translation>
    </message>
    <message>
        <source>Which head of this layer?</source>
        <translation>这一层的哪个头？</translation>
    </message>
    <message>
        <source>Switch off each head of the chosen layer in turn and run both picked tokens again: how much does the difference between them change?</source>
        <translation>依次关闭所选层的每个头，再次运行两个选中的词元：它们之间的差别改变了多少？</translation>
    </message>
    <message>
        <source>Not run: %1</source>
        <translation>未运行：%1</translation>
    </message>
    <message>
        <source>Every layer and head</source>
        <translation>每一层与每个头</translation>
    </message>
    <message>
        <source>Attention rows</source>
        <translation>注意力行</translation>
    </message>
    <message>
        <source>Next token</source>
        <translation>下一个词元</translation>
    </message>
    <message>
        <source>Which head?</source>
        <translation>是哪个头？</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::labs::KvCostChart</name>
    <message>
        <source>%1 (%2 KV heads)</source>
        <translation>%1（%2 个 KV 头）</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>device budget %1</source>
        <translation>设备预算 %1</translation>
    </message>
    <message>
        <source>left after the weights (%1)</source>
        <translation>扣除权重后剩余（%1）</translation>
    </message>
    <message>
        <source>The fields do not describe a valid KV cache (see the formula panel).</source>
        <translation>这些字段无法构成有效的 KV 缓存（见公式面板）。</translation>
    </message>
    <message>
        <source>weights %1 (%2 parameters at %3)</source>
        <translation>权重 %1（%2 个参数，以 %3 存储）</translation>
    </message>
    <message>
        <source>Device budget %1 − %2: the weights alone do not fit, nothing is left for the cache.</source>
        <translation>设备预算 %1 − %2：仅权重就放不下，没有留给缓存的空间。</translation>
    </message>
    <message>
        <source>Device budget %1 − %2 leaves %3 for the cache: %4 tokens of %5&apos;s %6 cache fit; %7 tokens need %8.</source>
        <translation>设备预算 %1 − %2，剩余 %3 可用于缓存：%5 的 %6 缓存可容纳 %4 个词元；%7 个词元需要 %8。</translation>
    </message>
    <message>
        <source>(Tokens per sequence, %1 sequences.)</source>
        <translation>（词元数按每条序列计，共 %1 条序列。）</translation>
    </message>
    <message>
        <source>Device memory</source>
        <translation>设备内存</translation>
    </message>
    <message>
        <source>Weights stored as</source>
        <translation>权重存储格式</translation>
    </message>
    <message>
        <source>Logarithmic axes</source>
        <translation>对数坐标轴</translation>
    </message>
    <message>
        <source>tokens that fit, %1</source>
        <translation>可容纳的词元数，%1</translation>
    </message>
    <message>
        <source>GPU memory, e.g. 80 GB; the weights take their share first</source>
        <translation>GPU 显存，例如 80 GB；权重先占用其所需部分</translation>
    </message>
    <message>
        <source>measured: the live run (%1)</source>
        <translation>实测：当前运行（%1）</translation>
    </message>
    <message>
        <source>any number</source>
        <translation>任意数量</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::labs::KvExperimentPanel</name>
    <message>
        <source>Open a model first.</source>
        <translation>请先打开模型。</translation>
    </message>
    <message>
        <source>The experiment failed: %1</source>
        <translation>实验失败：%1</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <source>%1 B</source>
        <translation>%1 B</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>Decode steps</source>
        <translation>解码步数</translation>
    </message>
    <message>
        <source>Run f16 / q8_0 / q4_0</source>
        <translation>运行 f16 / q8_0 / q4_0</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Cache</source>
        <translation>缓存</translation>
    </message>
    <message>
        <source>Measured KV bytes</source>
        <translation>实测 KV 字节数</translation>
    </message>
    <message>
        <source>Formula</source>
        <translation>公式</translation>
    </message>
    <message>
        <source>Mean KL vs f16</source>
        <translation>相对 f16 的平均 KL</translation>
    </message>
    <message>
        <source>KL after the prompt</source>
        <translation>提示词之后的 KL</translation>
    </message>
    <message>
        <source>Mean KL, decode steps</source>
        <translation>解码步的平均 KL</translation>
    </message>
    <message>
        <source>Same top token</source>
        <translation>首选词元相同</translation>
    </message>
    <message>
        <source>The same prompt runs three times, with the cache stored as fp16, int8 (q8_0) and int4 (q4_0). A smaller cache saves memory; the KL divergence shows how much each one changes what the model predicts next (0 = identical).</source>
        <translation>同一个提示词运行三次，缓存分别以 fp16、int8 (q8_0) 和 int4 (q4_0) 存储。缓存越小越省内存；KL 散度显示每种缓存对模型下一个词元预测的改变程度（0 = 完全相同）。</translation>
    </message>
    <message>
        <source>Running the prompt through %1 with f16, q8_0 and q4_0 caches…</source>
        <translation>正在用 %1 分别以 f16、q8_0 和 q4_0 缓存运行提示词…</translation>
    </message>
    <message>
        <source>%1: %2 prompt tokens + %3 decode steps (f16&apos;s greedy continuation: “%4”), fed to every cache. KL(P_f16 ‖ P_cache) in nats over the whole vocabulary; the mean is over every prompt position&apos;s next-token distribution and every decode step.</source>
        <translation>%1：%2 个提示词词元 + %3 个解码步（f16 的贪心续写：“%4”），依次输入每种缓存。KL(P_f16 ‖ P_cache) 在整个词表上计算，单位为奈特；平均值取自每个提示词位置的下一个词元分布以及每个解码步。</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::labs::KvFormulaPanel</name>
    <message>
        <source>Loaded model: %1</source>
        <translation>已加载的模型：%1</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>the custom shape</source>
        <translation>自定义形状</translation>
    </message>
    <message>
        <source>2 × %1 layers × %2 KV heads × %3 head dim × %4 tokens</source>
        <translation>2 × %1 层 × %2 个 KV 头 × %3 头维度 × %4 个词元</translation>
    </message>
    <message>
        <source> × %1 sequences</source>
        <translation> × %1 条序列</translation>
    </message>
    <message>
        <source> × %1 B</source>
        <translation> × %1 B</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <source>%1 bytes per token (all layers, K and V)</source>
        <translation>每个词元 %1 字节（所有层，K 和 V）</translation>
    </message>
    <message>
        <source>%1: %2 query heads share %3 KV heads</source>
        <translation>%1：%2 个查询头共享 %3 个 KV 头</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>Query heads</source>
        <translation>查询头</translation>
    </message>
    <message>
        <source>KV heads</source>
        <translation>KV 头</translation>
    </message>
    <message>
        <source>Head dimension</source>
        <translation>头维度</translation>
    </message>
    <message>
        <source>Tokens (context)</source>
        <translation>词元数（上下文）</translation>
    </message>
    <message>
        <source>Sequences</source>
        <translation>序列数</translation>
    </message>
    <message>
        <source>Cache type</source>
        <translation>缓存类型</translation>
    </message>
    <message>
        <source>Parameters (weights)</source>
        <translation>参数量（权重）</translation>
    </message>
    <message>
        <source>KV cache size</source>
        <translation>KV 缓存大小</translation>
    </message>
    <message>
        <source>2 × %1 KV heads × %2 head dim × (%3 global layers × %4 tokens + %5 local layers × %6 window tokens)</source>
        <translation>2 × %1 个 KV 头 × %2 头维度 × （%3 个全局层 × %4 个词元 + %5 个局部层 × 窗口内 %6 个词元）</translation>
    </message>
    <message>
        <source>%1 bytes per token inside the window, %2 past it (the global layers only)</source>
        <translation>窗口内每个词元 %1 字节，超出窗口后 %2 字节（仅全局层）</translation>
    </message>
    <message>
        <source>Sliding-window layers</source>
        <translation>滑动窗口层</translation>
    </message>
    <message>
        <source>Window (tokens)</source>
        <translation>窗口（词元）</translation>
    </message>
    <message>
        <source>Every layer keeps a key and a value vector (the 2) for every KV head and every token seen, so the cache grows linearly with the context. Grouped-query attention shares one KV head among several query heads; a quantized cache stores fewer bytes per value. A sliding-window layer (Gemma 3 has five in six) attends only to its last W tokens, so it keeps just those: past the window only the global layers grow.</source>
        <translation>每一层都要为每个 KV 头和每个已见过的词元保存一个键向量和一个值向量（即公式中的 2），因此缓存随上下文线性增长。分组查询注意力让多个查询头共用一个 KV 头；量化缓存则让每个值占用更少的字节。滑动窗口层（Gemma 3 每六层中有五层）只关注最近的 W 个词元，因此只保存这些：超出窗口后只有全局层继续增长。</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::labs::KvLab</name>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>Cost against context</source>
        <translation>开销随上下文的变化</translation>
    </message>
    <message>
        <source>Experiment: quantized cache</source>
        <translation>实验：量化缓存</translation>
    </message>
    <message>
        <source>Offload to host memory</source>
        <translation>卸载到主机内存</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::labs::KvOffloadPanel</name>
    <message>
        <source>The fields do not describe a valid KV cache (see the formula panel).</source>
        <translation>这些字段无法构成有效的 KV 缓存（见公式面板）。</translation>
    </message>
    <message>
        <source>%1 (%2 bytes)</source>
        <translation>%1（%2 字节）</translation>
    </message>
    <message>
        <source>Context (tokens)</source>
        <translation>上下文（词元）</translation>
    </message>
    <message>
        <source>Device memory for the cache</source>
        <translation>用于缓存的设备内存</translation>
    </message>
    <message>
        <source>When the cache does not fit on the device, keep only the most recent tokens&apos; keys and values there (a window) and the older ones in host memory. Every decode step then moves one token&apos;s KV out of the window and streams the host part back to attend over the whole context.</source>
        <translation>当缓存在设备上放不下时，只在设备上保留最近若干词元的键和值（一个窗口），更早的则放在主机内存中。此后每个解码步都会把一个词元的 KV 移出窗口，并把主机中的部分流式传回，以便对整个上下文计算注意力。</translation>
    </message>
    <message>
        <source>Device window</source>
        <translation>设备窗口</translation>
    </message>
    <message>
        <source>Device bytes</source>
        <translation>设备字节数</translation>
    </message>
    <message>
        <source>In host memory</source>
        <translation>位于主机内存</translation>
    </message>
    <message>
        <source>Host bytes</source>
        <translation>主机字节数</translation>
    </message>
    <message>
        <source>Evicted per decode step</source>
        <translation>每个解码步移出</translation>
    </message>
    <message>
        <source>Streamed from host per decode step</source>
        <translation>每个解码步从主机传回</translation>
    </message>
    <message>
        <source>Moved per decode step</source>
        <translation>每个解码步的传输量</translation>
    </message>
    <message numerus="yes">
        <source>%Ln token(s)</source>
        <translation>
            <numerusform>%Ln 个词元</numerusform>
        </translation>
    </message>
    <message>
        <source>Decoding %1 tokens after %2 on %3, with the whole cache in memory and within three budgets…</source>
        <translation>在 %3 上于 %2 个词元之后解码 %1 个词元：整个缓存留在内存中，以及三种预算下……</translation>
    </message>
    <message>
        <source>whole cache</source>
        <translation>整个缓存</translation>
    </message>
    <message>
        <source>%1 tok/s</source>
        <translation>%1 词元/秒</translation>
    </message>
    <message>
        <source>Measured on %1: the bytes moved and the speed of each decode step, beside the bandwidth model&apos;s bytes for a device window of the same size (above).</source>
        <translation>在 %1 上实测：每个解码步移动的字节数与速度，旁边是带宽模型对同样大小设备窗口给出的字节数（见上）。</translation>
    </message>
    <message>
        <source>Measure on the loaded model</source>
        <translation>在已加载的模型上实测</translation>
    </message>
    <message>
        <source>Decode on the loaded model with its KV cache whole in memory, then within a half, a quarter and an eighth of it (the rest in a temporary file, read back every step): measured speed and bytes moved, beside the model&apos;s prediction</source>
        <translation>在已加载的模型上解码：KV 缓存先整个留在内存，再只留一半、四分之一和八分之一（其余在临时文件中，每步读回）：实测速度与移动的字节数，旁边是模型的预测</translation>
    </message>
    <message>
        <source>Resident budget</source>
        <translation>常驻预算</translation>
    </message>
    <message>
        <source>Decode speed</source>
        <translation>解码速度</translation>
    </message>
    <message>
        <source>Moved per token (measured)</source>
        <translation>每词元移动（实测）</translation>
    </message>
    <message>
        <source>Moved per token (model)</source>
        <translation>每词元移动（模型）</translation>
    </message>
    <message>
        <source>In memory (measured)</source>
        <translation>内存中（实测）</translation>
    </message>
    <message>
        <source>In the file (measured)</source>
        <translation>文件中（实测）</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::labs::KvOffloadStrip</name>
    <message>
        <source>host: tokens 0–%1</source>
        <translation>主机：词元 0–%1</translation>
    </message>
    <message numerus="yes">
        <source>device window: last %Ln token(s)</source>
        <translation>
            <numerusform>设备窗口：最近 %Ln 个词元</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lmscope::gui::labs::LabWindow</name>
    <message>
        <source>lmscope labs</source>
        <translation>lmscope 实验室</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::labs::LogitLensLab</name>
    <message>
        <source>Logit lens</source>
        <translation>Logit 透镜</translation>
    </message>
    <message>
        <source>position %1, id %2: click to read the lens here</source>
        <translation>位置 %1，ID %2：点击可在此处读取透镜</translation>
    </message>
    <message>
        <source>Type a prompt.</source>
        <translation>请输入提示词。</translation>
    </message>
    <message>
        <source>Open a model to read its logit lens.</source>
        <translation>请先打开模型，再读取它的 Logit 透镜。</translation>
    </message>
    <message>
        <source>Reading every layer at position %1...</source>
        <translation>正在读取位置 %1 处的每一层…</translation>
    </message>
    <message>
        <source>The lens failed: %1</source>
        <translation>透镜读取失败：%1</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>id %1, probability %2</source>
        <translation>ID %1，概率 %2</translation>
    </message>
    <message>
        <source>After &quot;%1&quot; (position %2) the model predicts &quot;%3&quot; (p = %4). It is the lens&apos;s top token from layer %5 on; the table shows each layer&apos;s top %6, the chart its rank.</source>
        <translation>在“%1”（位置 %2）之后，模型预测“%3”（p = %4）。从第 %5 层起，它就是透镜给出的首选词元；表格列出每一层的前 %6 个词元，图表显示它的排名。</translation>
    </message>
    <message>
        <source>The logit lens reads the model&apos;s mind half-way: after every layer, the residual stream is passed through the final norm and the output head as if it were the last layer. Early layers give vague guesses; the final answer usually forms in the upper layers. Click a token to read the lens at that position.</source>
        <translation>Logit 透镜在中途读取模型的“想法”：在每一层之后，都把残差流当作最后一层的输出，送入最终的归一化层和输出头。浅层给出的猜测比较模糊；最终答案通常在较高的层中形成。点击一个词元，即可读取该位置的透镜结果。</translation>
    </message>
    <message>
        <source>Prompt:</source>
        <translation>提示词：</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>top %1</source>
        <translation>第 %1 名</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::labs::MisspellingView</name>
    <message>
        <source>Word:</source>
        <translation>单词：</translation>
    </message>
    <message>
        <source>Your own misspellings (comma-separated):</source>
        <translation>你自己的错误拼写（用逗号分隔）：</translation>
    </message>
    <message>
        <source>Token counts of the word after a space, as inside a sentence. Orange: the count differs from the correct spelling&apos;s. Pick a row to compare the model&apos;s next token.</source>
        <translation>单词前带一个空格（如同在句子中）时的词元数。橙色：与正确拼写的词元数不同。选择一行，比较模型预测的下一个词元。</translation>
    </message>
    <message>
        <source>Prompt ({word} = the word):</source>
        <translation>提示词（{word} = 该单词）：</translation>
    </message>
    <message>
        <source>Compare next token</source>
        <translation>比较下一个词元</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>next token</source>
        <translation>下一个词元</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>概率</translation>
    </message>
    <message>
        <source>Enter a word first.</source>
        <translation>请先输入一个单词。</translation>
    </message>
    <message>
        <source>Open a model to compare its next-token distributions.</source>
        <translation>请先打开模型，再比较它的下一个词元分布。</translation>
    </message>
    <message>
        <source>Running the model on both prompts…</source>
        <translation>正在对两个提示词运行模型…</translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>运行失败：%1</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <source>After the correct prompt</source>
        <translation>正确拼写的提示词之后</translation>
    </message>
    <message>
        <source>After the misspelled prompt</source>
        <translation>错误拼写的提示词之后</translation>
    </message>
    <message>
        <source>KL(correct ‖ misspelled) = %1 nats over all %2 tokens</source>
        <translation>KL(正确 ‖ 错误) = %1 奈特（在全部 %2 个词元上计算）</translation>
    </message>
    <message>
        <source>%1  (id %2)</source>
        <translation>%1（ID %2）</translation>
    </message>
    <message numerus="yes">
        <source>After “%1” (%Ln token(s))</source>
        <translation>
            <numerusform>“%1”之后（共 %Ln 个词元）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lmscope::gui::labs::TokenizerCompareView</name>
    <message>
        <source>Tokenizers split text into pieces. I will definitely come, not definately!
Numbers: 12345 and 3.14159. Accents and emoji: naïve café 🙂</source>
        <translation>分词器会把文本切成小块。I will definitely come, not definately!
数字：12345 和 3.14159。重音符号与表情：naïve café 🙂</translation>
    </message>
    <message>
        <source>Text (every tokenizer below splits it as you type):</source>
        <translation>文本（输入时，下方每个分词器都会实时切分）：</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message numerus="yes">
        <source>%n token(s)</source>
        <translation>
            <numerusform>%n 个词元</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n character(s)</source>
        <translation>
            <numerusform>%n 个字符</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 characters per token</source>
        <translation>每个词元 %1 个字符</translation>
    </message>
    <message numerus="yes">
        <source>%n byte piece(s)</source>
        <translation>
            <numerusform>%n 个字节片段</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lmscope::gui::labs::TokenizerLab</name>
    <message>
        <source>Tokenizers</source>
        <translation>分词器</translation>
    </message>
    <message>
        <source>A model reads tokens, not letters. Type a text and see how each tokenizer splits it; dashed orange chips are byte pieces, hover a chip for its id.</source>
        <translation>模型读取的是词元，而不是字母。输入一段文本，看看每个分词器如何切分它；橙色虚线框的小块是字节片段，鼠标悬停在小块上可查看其 ID。</translation>
    </message>
    <message>
        <source>Side by side</source>
        <translation>并排对比</translation>
    </message>
    <message>
        <source>Misspellings</source>
        <translation>拼写错误</translation>
    </message>
    <message>
        <source>BPE merges</source>
        <translation>BPE 合并</translation>
    </message>
    <message>
        <source>The sample tokenizer could not be trained: %1</source>
        <translation>无法训练示例分词器：%1</translation>
    </message>
    <message>
        <source>The sample tokenizer (BPE %1) was trained from the bundled corpus.</source>
        <translation>示例分词器（BPE %1）已用内置语料训练完成。</translation>
    </message>
    <message>
        <source>Training the sample tokenizer from the bundled corpus…</source>
        <translation>正在用内置语料训练示例分词器…</translation>
    </message>
    <message>
        <source>Sample BPE %1</source>
        <translation>示例 BPE %1</translation>
    </message>
    <message>
        <source>trained at first use from the bundled sample corpus: %1</source>
        <translation>首次使用时用内置示例语料训练：%1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Cannot add %1</source>
        <translation>无法添加 %1</translation>
    </message>
    <message>
        <source>Add a tokenizer</source>
        <translation>添加分词器</translation>
    </message>
    <message>
        <source>Add a tokenizer file (.gguf, .model, .tiktoken, vocab.txt)…</source>
        <translation>添加分词器文件（.gguf、.model、.tiktoken、vocab.txt）…</translation>
    </message>
    <message>
        <source>Loading the GPT-4, GPT-4o and BERT tokenizers…</source>
        <translation>正在加载 GPT-4、GPT-4o 和 BERT 分词器…</translation>
    </message>
    <message>
        <source>GPT-4, GPT-4o and BERT: the tokenizers fetched by sample_models/fetch.sh.</source>
        <translation>GPT-4、GPT-4o 和 BERT：由 sample_models/fetch.sh 获取的分词器。</translation>
    </message>
    <message>
        <source>Not shown (run sample_models/fetch.sh to fetch them): %1</source>
        <translation>未显示（运行 sample_models/fetch.sh 获取）：%1</translation>
    </message>
    <message>
        <source>%1 was not found</source>
        <translation>未找到 %1</translation>
    </message>
    <message>
        <source>Tokenizers (*.gguf *.model *.tiktoken *.tiktoken.gz *.txt);;GGUF models and vocabularies (*.gguf);;SentencePiece models (*.model);;tiktoken rank files (*.tiktoken *.tiktoken.gz);;WordPiece vocabularies (*.txt);;All files (*)</source>
        <translation>分词器 (*.gguf *.model *.tiktoken *.tiktoken.gz *.txt);;GGUF 模型和词表 (*.gguf);;SentencePiece 模型 (*.model);;tiktoken 排名文件 (*.tiktoken *.tiktoken.gz);;WordPiece 词表 (*.txt);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::labs::TokenizerSet</name>
    <message>
        <source>the loaded model: %1</source>
        <translation>已加载的模型：%1</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::labs::TokenizerTrainerPanel</name>
    <message>
        <source>Training… %1 s</source>
        <translation>正在训练… %1 秒</translation>
    </message>
    <message>
        <source>Method:</source>
        <translation>方法：</translation>
    </message>
    <message>
        <source>BPE (merges pairs)</source>
        <translation>BPE（合并相邻对）</translation>
    </message>
    <message>
        <source>Unigram (prunes pieces)</source>
        <translation>Unigram（剪除片段）</translation>
    </message>
    <message>
        <source>Vocabulary: %1</source>
        <translation>词表大小：%1</translation>
    </message>
    <message>
        <source>Use the sample corpus</source>
        <translation>使用示例语料</translation>
    </message>
    <message>
        <source>Choose a corpus file…</source>
        <translation>选择语料文件…</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Corpus: the sample corpus (about 10 KB of English prose)</source>
        <translation>语料：示例语料（约 10 KB 英文散文）</translation>
    </message>
    <message>
        <source>Corpus: %1</source>
        <translation>语料：%1</translation>
    </message>
    <message>
        <source>Choose a training corpus</source>
        <translation>选择训练语料</translation>
    </message>
    <message>
        <source>Text files (*.txt);;All files (*)</source>
        <translation>文本文件 (*.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>sample corpus</source>
        <translation>示例语料</translation>
    </message>
    <message>
        <source>Unigram</source>
        <translation>Unigram</translation>
    </message>
    <message>
        <source>BPE</source>
        <translation>BPE</translation>
    </message>
    <message>
        <source>Trained %1 %2 on the %3 in %4 s.</source>
        <translation>已基于“%3”训练 %1 %2，用时 %4 秒。</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>trained here on %1: %2</source>
        <translation>在此基于“%1”训练：%2</translation>
    </message>
    <message>
        <source>Training failed: %1</source>
        <translation>训练失败：%1</translation>
    </message>
    <message>
        <source>Training cancelled.</source>
        <translation>训练已取消。</translation>
    </message>
    <message>
        <source>Train a tokenizer</source>
        <translation>训练分词器</translation>
    </message>
    <message>
        <source>WordPiece (merges the likeliest pairs, BERT)</source>
        <translation>WordPiece（合并似然最高的相邻对，BERT）</translation>
    </message>
    <message>
        <source>WordPiece</source>
        <translation>WordPiece</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::AttentionGrid</name>
    <message>
        <source>L%1</source>
        <translation>L%1</translation>
    </message>
    <message>
        <source>No attention to show yet: run a step</source>
        <translation>还没有可显示的注意力：请先运行一步</translation>
    </message>
    <message>
        <source>KV %1</source>
        <translation>KV %1</translation>
    </message>
    <message>
        <source>H%1</source>
        <translation>H%1</translation>
    </message>
    <message>
        <source>Layer %1 · head %2 · KV head %3</source>
        <translation>第 %1 层 · 头 %2 · KV 头 %3</translation>
    </message>
    <message>
        <source>&apos;%1&apos; (%2) looks most at &apos;%3&apos; (%4): %5</source>
        <translation>“%1”(%2) 最关注“%3”(%4)：%5</translation>
    </message>
    <message>
        <source>Turn head %1:%2 back on</source>
        <translation>重新打开头 %1:%2</translation>
    </message>
    <message>
        <source>Turn off head %1:%2</source>
        <translation>关闭头 %1:%2</translation>
    </message>
    <message>
        <source>Turn off every head of layer %1</source>
        <translation>关闭第 %1 层的所有头</translation>
    </message>
    <message>
        <source>Turn every head back on</source>
        <translation>重新打开所有头</translation>
    </message>
    <message>
        <source>Switched off in this step: its output (z) was zero</source>
        <translation>本步中已关闭：它的输出（z）为零</translation>
    </message>
    <message>
        <source>Switched off from the next step</source>
        <translation>从下一步起关闭</translation>
    </message>
    <message>
        <source>Recompute this step with the heads off now</source>
        <translation>用现在关闭的头重新计算这一步</translation>
    </message>
    <message>
        <source>Rewind to the step before this one and run this step again, with the heads switched off now (the old result stays as another branch)</source>
        <translation>回到这一步之前的一步，用现在关闭的头再运行这一步（旧结果作为另一个分支保留）</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::AttentionHeatmap</name>
    <message>
        <source>Mean over heads</source>
        <translation>各头平均</translation>
    </message>
    <message>
        <source>Average the weights of every head of the layer</source>
        <translation>对该层所有头的权重取平均</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>key (attended-to token)</source>
        <translation>键（被关注的词元）</translation>
    </message>
    <message>
        <source>query (attending token)</source>
        <translation>查询（发出关注的词元）</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>KV head %1, shared by query heads %2 (GQA)</source>
        <translation>KV 头 %1，由查询头 %2 共享（GQA）</translation>
    </message>
    <message>
        <source>each head has its own keys and values (MHA)</source>
        <translation>每个头都有自己的键和值（MHA）</translation>
    </message>
    <message>
        <source>Layer %1 · mean over heads</source>
        <translation>第 %1 层 · 各头平均</translation>
    </message>
    <message>
        <source>Layer %1 · head %2</source>
        <translation>第 %1 层 · 头 %2</translation>
    </message>
    <message>
        <source>what &apos;%1&apos; (position %2) attends to</source>
        <translation>“%1”（位置 %2）关注的内容</translation>
    </message>
    <message>
        <source>query &apos;%1&apos; (%2) → key &apos;%3&apos; (%4)</source>
        <translation>查询“%1”(%2) → 键“%3”(%4)</translation>
    </message>
    <message>
        <source>masked (the future is hidden)</source>
        <translation>已遮蔽（未来不可见）</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <source>Attention, layer %1, mean over heads</source>
        <translation>注意力，第 %1 层，各头平均</translation>
    </message>
    <message>
        <source>Attention, layer %1, head %2</source>
        <translation>注意力，第 %1 层，头 %2</translation>
    </message>
    <message>
        <source>Log colours</source>
        <translation>对数配色</translation>
    </message>
    <message>
        <source>Colour weights on a logarithmic scale, so small weights show too</source>
        <translation>按对数刻度为权重着色，小权重也能看清</translation>
    </message>
    <message>
        <source>masked (outside this local layer&apos;s window of %1 tokens)</source>
        <translation>已遮蔽（超出此局部层 %1 个词元的窗口）</translation>
    </message>
    <message numerus="yes">
        <source>At %Ln token(s) the trace&apos;s memory budget keeps this step&apos;s rows for %1 of %2 heads, and not for this one: the grid shows its summary. Choose the head before the step to keep its rows.</source>
        <translation>
            <numerusform>在 %Ln 个词元时，轨迹的内存预算只为 %2 个头中的 %1 个保留这一步的行，不包括这个头：网格中显示它的摘要。在运行这一步之前选好这个头即可保留它的行。</numerusform>
        </translation>
    </message>
    <message>
        <source>Rows in grey were not recorded: the trace&apos;s memory budget released them (the oldest steps go first); the grid still shows each head&apos;s summary.</source>
        <translation>灰色的行没有记录：轨迹的内存预算释放了它们（最早的步骤先释放）；网格仍显示每个头的摘要。</translation>
    </message>
    <message>
        <source>Zoom to row</source>
        <translation>放大到所选行</translation>
    </message>
    <message>
        <source>Show the %1 tokens around the selected query row, one cell each. The mouse wheel zooms, dragging pans, a double-click shows every token.</source>
        <translation>显示所选查询行周围的 %1 个词元，每个词元一格。鼠标滚轮缩放，拖动平移，双击显示全部词元。</translation>
    </message>
    <message>
        <source>%1 × %1 tokens a cell (zoom for each)</source>
        <translation>每格 %1 × %1 个词元（放大可看单个）</translation>
    </message>
    <message>
        <source>%1 × %1 tokens a cell (the finest the memory budget allows at this length)</source>
        <translation>每格 %1 × %1 个词元（此长度下内存预算允许的最细粒度）</translation>
    </message>
    <message>
        <source>the largest weight of each %1 × %1 block of tokens</source>
        <translation>每个 %1 × %1 词元块中的最大权重</translation>
    </message>
    <message>
        <source>Head %1 of layer %2 was switched off in this step: these are the weights it computed, but its output was zeroed before Wo, so what it read did not reach the residual stream.</source>
        <translation>第 %2 层的头 %1 在这一步被关闭：这里是它算出的权重，但它的输出在 Wo 之前被置零，它读到的内容没有进入残差流。</translation>
    </message>
    <message>
        <source>Head %1 of layer %2 is switched off from the next step on; this step ran with it on.</source>
        <translation>第 %2 层的头 %1 从下一步起关闭；这一步运行时它仍开着。</translation>
    </message>
    <message>
        <source>one KV head, shared by every query head: %1 (MQA)</source>
        <translation>只有一个 KV 头，由所有查询头共享：%1（MQA）</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::CacheKlChart</name>
    <message>
        <source>KL, %1 vs fp16</source>
        <translation>KL，%1 相对 fp16</translation>
    </message>
    <message>
        <source>position (the prompt, then the decode steps after the dashed line)</source>
        <translation>位置（先是提示词，虚线之后是解码步）</translation>
    </message>
    <message>
        <source>KL (nats)</source>
        <translation>KL（奈特）</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::FfnChart</name>
    <message>
        <source>Top %1 neurons by |activation|</source>
        <translation>|激活值| 最大的 %1 个神经元</translation>
    </message>
    <message>
        <source>Activation of all %1 neurons</source>
        <translation>全部 %1 个神经元的激活值</translation>
    </message>
    <message>
        <source>Activation of every neuron</source>
        <translation>每个神经元的激活值</translation>
    </message>
    <message>
        <source>activation (mlp_act)</source>
        <translation>激活值（mlp_act）</translation>
    </message>
    <message>
        <source>activation</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>neurons</source>
        <translation>神经元数</translation>
    </message>
    <message>
        <source>|resid_mid| = %1 → FFN writes |mlp_out| = %2 → |resid_post| = %3</source>
        <translation>|resid_mid| = %1 → 前馈网络写入 |mlp_out| = %2 → |resid_post| = %3</translation>
    </message>
    <message>
        <source>%1 neurons, |act| = %2</source>
        <translation>%1 个神经元，|act| = %2</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::FilteredTable</name>
    <message>
        <source>Filter (any column)</source>
        <translation>筛选（任意列）</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::HeadGrid</name>
    <message>
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>head</source>
        <translation>头</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::HelpButton</name>
    <message>
        <source>What am I looking at? (F1)</source>
        <translation>我在看什么？（F1）</translation>
    </message>
    <message>
        <source>Explain this panel</source>
        <translation>解释这个面板</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::HintBar</name>
    <message>
        <source>Dismiss this hint (Help &gt; Show Panel Hints Again brings it back)</source>
        <translation>关闭这条提示（“帮助 &gt; 重新显示面板提示”可以让它回来）</translation>
    </message>
    <message>
        <source>Dismiss this hint</source>
        <translation>关闭这条提示</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::KvChart</name>
    <message numerus="yes">
        <source>formula, the %n local layer(s) (window %1)</source>
        <translation>
            <numerusform>公式，%n 个局部层（窗口 %1）</numerusform>
        </translation>
    </message>
    <message>
        <source>tokens in the cache</source>
        <translation>缓存中的词元数</translation>
    </message>
    <message>
        <source>bytes held</source>
        <translation>占用字节</translation>
    </message>
    <message>
        <source>formula</source>
        <translation>公式</translation>
    </message>
    <message>
        <source>formula: 2 (K and V) × layers × KV heads × head dim × tokens × bytes per value</source>
        <translation>公式：2（K 和 V）× 层数 × KV 头数 × 头维度 × 词元数 × 每个值的字节数</translation>
    </message>
    <message>
        <source>measured, all layers</source>
        <translation>实测，所有层</translation>
    </message>
    <message>
        <source>prefill step</source>
        <translation>预填充步</translation>
    </message>
    <message>
        <source>decode step</source>
        <translation>解码步</translation>
    </message>
    <message>
        <source>measured, layer %1</source>
        <translation>实测，第 %1 层</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>KV cache bytes per step</source>
        <translation>每步的 KV 缓存字节数</translation>
    </message>
    <message numerus="yes">
        <source>KV cache: %1 holding %n token(s) (%2)</source>
        <translation>
            <numerusform>KV 缓存：%1，容纳 %n 个词元（%2）</numerusform>
        </translation>
    </message>
    <message>
        <source>measured, layer %1 (keeps its last %2)</source>
        <translation>实测，第 %1 层（只保留最近 %2 个）</translation>
    </message>
    <message>
        <source>formula: 2 (K and V) × KV heads × head dim × bytes per value × (global layers (%1) × tokens + local layers (%2) × min(tokens, %3)): a local layer attends to its last %3 tokens only, so its cache keeps just those</source>
        <translation>公式：2（K 和 V）× KV 头数 × 头维度 × 每个值的字节数 ×（全局层（%1 个）× 词元数 + 局部层（%2 个）× min(词元数, %3)）：局部层只关注最近的 %3 个词元，因此它的缓存只保存这些</translation>
    </message>
    <message>
        <source>measured ≠ formula</source>
        <translation>实测 ≠ 公式</translation>
    </message>
    <message>
        <source>, %1 of it in the offload file (%2 moved by the step)</source>
        <translation>，其中 %1 在卸载文件中（本步移动 %2）</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::KvGrowthChart</name>
    <message>
        <source>context length (tokens)</source>
        <translation>上下文长度（词元）</translation>
    </message>
    <message>
        <source>KV cache bytes</source>
        <translation>KV 缓存字节数</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::LensRankChart</name>
    <message>
        <source>rank of the final prediction</source>
        <translation>最终预测的排名</translation>
    </message>
    <message>
        <source>its probability</source>
        <translation>其概率</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>rank (1 = top)</source>
        <translation>排名（1 = 最高）</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>概率</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::LogitsView</name>
    <message>
        <source>raw</source>
        <translation>原始</translation>
    </message>
    <message>
        <source>repetition penalty</source>
        <translation>重复惩罚</translation>
    </message>
    <message>
        <source>temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>top-k</source>
        <translation>top-k</translation>
    </message>
    <message>
        <source>top-p</source>
        <translation>top-p</translation>
    </message>
    <message>
        <source>min-p</source>
        <translation>min-p</translation>
    </message>
    <message>
        <source>greedy</source>
        <translation>贪心</translation>
    </message>
    <message>
        <source>sampled</source>
        <translation>采样</translation>
    </message>
    <message>
        <source>forced</source>
        <translation>强制</translation>
    </message>
    <message>
        <source>prompt</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>概率</translation>
    </message>
    <message>
        <source>before the filters</source>
        <translation>过滤前</translation>
    </message>
    <message>
        <source>after the filters</source>
        <translation>过滤后</translation>
    </message>
    <message>
        <source>No distribution yet: run a step</source>
        <translation>尚无分布：请先运行一步</translation>
    </message>
    <message>
        <source>after the filters (none)</source>
        <translation>过滤后（无）</translation>
    </message>
    <message>
        <source>Next token &lt;b&gt;&apos;%1&apos;&lt;/b&gt; (%2), p = %3 → %4 · entropy %5 nats</source>
        <translation>下一个词元 &lt;b&gt;“%1”&lt;/b&gt;（%2），p = %3 → %4 · 熵 %5 奈特</translation>
    </message>
    <message>
        <source>Next-token candidates</source>
        <translation>下一个词元的候选</translation>
    </message>
    <message numerus="yes">
        <source>after %1 (%n token(s) left)</source>
        <translation>
            <numerusform>%1 之后（剩余 %n 个词元）</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>%1: probability %2 before the filters, %3 after them; logit %4</source>
        <translation>%1：过滤前概率 %2，过滤后 %3；logit %4</translation>
    </message>
    <message>
        <source>%1 ✗ %2</source>
        <translation>%1 ✗ %2</translation>
    </message>
    <message>
        <source>%1: probability %2 before the filters, removed by %3; logit %4</source>
        <translation>%1：过滤前概率 %2，被 %3 移除；logit %4</translation>
    </message>
    <message>
        <source>%1 ✗</source>
        <translation>%1 ✗</translation>
    </message>
    <message>
        <source>%1: probability %2 before the filters, filtered out; logit %3</source>
        <translation>%1：过滤前概率 %2，已被过滤；logit %3</translation>
    </message>
    <message>
        <source>Right: probability before → after the filters, or ✗ and the filter that removed the token. Hover a row for its logit.</source>
        <translation>右侧：过滤前 → 过滤后的概率，或 ✗ 及移除该词元的过滤器。鼠标悬停在某行上可查看其 logit。</translation>
    </message>
    <message>
        <source>L%1 H%2</source>
        <translation>L%1 H%2</translation>
    </message>
    <message>
        <source>Recompute this step</source>
        <translation>重新计算这一步</translation>
    </message>
    <message>
        <source>Rewind to the step before this one and run this step again with the heads switched off now (%1); the old result stays as another branch</source>
        <translation>回到这一步之前的一步，用现在关闭的头（%1）再运行这一步；旧结果作为另一个分支保留</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Heads switched off: %1</source>
        <translation>关闭的头：%1</translation>
    </message>
    <message>
        <source>Computing the distribution without switching them off…</source>
        <translation>正在计算不关闭它们时的分布…</translation>
    </message>
    <message>
        <source>The distribution without them could not be computed: %1</source>
        <translation>无法计算不关闭它们时的分布：%1</translation>
    </message>
    <message>
        <source>KL(with ‖ without) = %1 nats: how far switching them off moved the next-token distribution</source>
        <translation>KL(关闭 ‖ 不关闭) = %1 奈特：关闭它们让下一个词元的分布移动了多远</translation>
    </message>
    <message>
        <source>token</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>p with them off</source>
        <translation>关闭它们时的 p</translation>
    </message>
    <message>
        <source>p with every head on</source>
        <translation>所有头都打开时的 p</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::MetadataModel</name>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::PanelTitleBar</name>
    <message>
        <source>Float or dock this panel</source>
        <translation>让这个面板浮动或停靠</translation>
    </message>
    <message>
        <source>Close this panel (the View menu shows it again)</source>
        <translation>关闭这个面板（“视图”菜单可以再显示它）</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::PrefillChart</name>
    <message>
        <source>turn %1</source>
        <translation>第 %1 轮</translation>
    </message>
    <message>
        <source>prefilled with prefix reuse</source>
        <translation>使用前缀复用时预填充</translation>
    </message>
    <message>
        <source>prefilled without (whole history)</source>
        <translation>不复用时预填充（整段历史）</translation>
    </message>
    <message>
        <source>running total with reuse (incl. generated)</source>
        <translation>复用时的累计（含生成）</translation>
    </message>
    <message>
        <source>running total without reuse</source>
        <translation>不复用时的累计</translation>
    </message>
    <message>
        <source>turn</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>tokens per turn</source>
        <translation>每轮词元数</translation>
    </message>
    <message>
        <source>tokens so far</source>
        <translation>累计词元数</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::ResidualStreamChart</name>
    <message>
        <source>|resid_pre|: the stream</source>
        <translation>|resid_pre|：残差流</translation>
    </message>
    <message>
        <source>|attn_out|: attention writes</source>
        <translation>|attn_out|：注意力写入</translation>
    </message>
    <message>
        <source>|mlp_out|: the MLP writes</source>
        <translation>|mlp_out|：MLP 写入</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>norm (L2)</source>
        <translation>范数（L2）</translation>
    </message>
    <message>
        <source>logit lens: the top token after the layer</source>
        <translation>logit 透镜：这一层之后排名第一的词元</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::RopeView</name>
    <message>
        <source>q and k are not rotated; position reaches this layer only through the causal mask and the residual stream</source>
        <translation>q 和 k 不旋转；位置信息只通过因果掩码和残差流到达这一层</translation>
    </message>
    <message>
        <source>Layer %1 uses no RoPE (NoPE): %2</source>
        <translation>第 %1 层不使用 RoPE（NoPE）：%2</translation>
    </message>
    <message>
        <source>This layer uses no RoPE (NoPE): %1</source>
        <translation>这一层不使用 RoPE（NoPE）：%1</translation>
    </message>
    <message>
        <source>Frequency of each pair: base %1</source>
        <translation>每一对的频率：基数 %1</translation>
    </message>
    <message>
        <source>pair i</source>
        <translation>第 i 对</translation>
    </message>
    <message>
        <source>θ (radians per position)</source>
        <translation>θ（每个位置的弧度）</translation>
    </message>
    <message>
        <source>wavelength 2π/θ (positions)</source>
        <translation>波长 2π/θ（位置数）</translation>
    </message>
    <message>
        <source>θ of every pair</source>
        <translation>每一对的 θ</translation>
    </message>
    <message>
        <source>the pairs drawn above</source>
        <translation>上面画出的几对</translation>
    </message>
    <message>
        <source>Score against the relative position</source>
        <translation>分数与相对位置</translation>
    </message>
    <message>
        <source>offset m − n (positions)</source>
        <translation>偏移 m − n（位置数）</translation>
    </message>
    <message>
        <source>score (scaled q·k)</source>
        <translation>分数（缩放后的 q·k）</translation>
    </message>
    <message>
        <source>lowest score over the positions tried</source>
        <translation>所试位置中的最低分数</translation>
    </message>
    <message>
        <source>highest score</source>
        <translation>最高分数</translation>
    </message>
    <message>
        <source>middle of the two</source>
        <translation>两者的中间</translation>
    </message>
    <message>
        <source>The same for every pair of positions with this offset: flat within 1e-4</source>
        <translation>对偏移相同的每一对位置都一样：在 1e-4 以内是平的</translation>
    </message>
    <message>
        <source>Not the same for every pair of positions with this offset: the largest spread (highest − lowest score) is %1, at offset %2</source>
        <translation>对偏移相同的各对位置并不一样：最大差距（最高 − 最低分数）为 %1，在偏移 %2 处</translation>
    </message>
    <message>
        <source>q blue, k orange; dashed: before the rotation, solid: after it (q at position %1, k at position %2); each pair turns by angle = position × θ</source>
        <translation>q 为蓝色，k 为橙色；虚线：旋转之前，实线：旋转之后（q 在位置 %1，k 在位置 %2）；每一对转过的角度 = 位置 × θ</translation>
    </message>
    <message>
        <source>pair %1 (dims %2)
θ = %3
angle = %4°</source>
        <translation>第 %1 对（维度 %2）
θ = %3
角度 = %4°</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::ScoreStagesChart</name>
    <message>
        <source>q·k</source>
        <translation>q·k</translation>
    </message>
    <message>
        <source>× scale</source>
        <translation>× 缩放</translation>
    </message>
    <message>
        <source>mask</source>
        <translation>掩码</translation>
    </message>
    <message>
        <source>softmax</source>
        <translation>softmax</translation>
    </message>
    <message>
        <source>The dot product of the rotated query with each rotated key: how well each key matches what the query looks for.</source>
        <translation>旋转后的查询与每个旋转后的键的点积：每个键与查询所找的内容有多匹配。</translation>
    </message>
    <message>
        <source>The dot products times the attention scale (1/√head_dim unless the model sets its own), which keeps the softmax from saturating.</source>
        <translation>点积乘以注意力缩放系数（除非模型另行设定，否则为 1/√head_dim），使 softmax 不致饱和。</translation>
    </message>
    <message>
        <source>The keys this query may not see (the future, or keys outside a local layer&apos;s window) set to −∞, so they get no weight.</source>
        <translation>这个查询不能看的键（未来，或局部层窗口之外的键）被设为 −∞，所以它们得不到权重。</translation>
    </message>
    <message>
        <source>The softmax over the row: the attention weights, each between 0 and 1, summing to 1.</source>
        <translation>对这一行做 softmax：得到注意力权重，每个在 0 到 1 之间，总和为 1。</translation>
    </message>
    <message>
        <source>hidden (−∞): in the future, after the query</source>
        <translation>隐藏（−∞）：在未来，位于查询之后</translation>
    </message>
    <message>
        <source>hidden (−∞): outside the local window</source>
        <translation>隐藏（−∞）：在局部窗口之外</translation>
    </message>
    <message>
        <source>query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>q · k</source>
        <translation>q · k</translation>
    </message>
    <message>
        <source>q · k of each key</source>
        <translation>每个键的 q · k</translation>
    </message>
    <message>
        <source>q · k × scale (%1)</source>
        <translation>q · k × 缩放（%1）</translation>
    </message>
    <message>
        <source>scaled score of each key</source>
        <translation>每个键缩放后的分数</translation>
    </message>
    <message>
        <source>score after the mask (−∞: hidden)</source>
        <translation>掩码之后的分数（−∞：隐藏）</translation>
    </message>
    <message>
        <source>score of each key the query sees</source>
        <translation>查询能看到的每个键的分数</translation>
    </message>
    <message>
        <source>attention weight</source>
        <translation>注意力权重</translation>
    </message>
    <message>
        <source>attention weight of each key</source>
        <translation>每个键的注意力权重</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>key position</source>
        <translation>键的位置</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::TensorTableModel</name>
    <message>
        <source>%1 elements</source>
        <translation>%1 个元素</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::Timeline</name>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>No steps yet</source>
        <translation>尚无步骤</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <source>decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>Step %1 · %2 · positions %3–%4&lt;br&gt;forward %5 ms · sampling %6 ms&lt;br&gt;click to rewind here</source>
        <translation>第 %1 步 · %2 · 位置 %3–%4&lt;br&gt;前向 %5 毫秒 · 采样 %6 毫秒&lt;br&gt;点击回退到此处</translation>
    </message>
    <message>
        <source>Branch</source>
        <translation>分支</translation>
    </message>
    <message numerus="yes">
        <source>prefill
%n token(s)</source>
        <translation>
            <numerusform>预填充
%n 个词元</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: … &apos;%2&apos; (%n step(s))</source>
        <translation>
            <numerusform>%1：…“%2”（%n 步）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>prefill %1 ms for %n token(s) (%2 ms/token)</source>
        <translation>
            <numerusform>预填充 %1 毫秒，共 %n 个词元（%2 毫秒/词元）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>decode %1 ms/token over %n step(s)</source>
        <translation>
            <numerusform>解码 %1 毫秒/词元，共 %n 步</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::TokenStrip</name>
    <message>
        <source>prompt</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>generated (greedy)</source>
        <translation>生成（贪心）</translation>
    </message>
    <message>
        <source>generated (sampled)</source>
        <translation>生成（采样）</translation>
    </message>
    <message>
        <source>forced by you</source>
        <translation>由你强制指定</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;id %2 · position %3&lt;br&gt;piece %4&lt;br&gt;bytes %5–%6 · %7</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;ID %2 · 位置 %3&lt;br&gt;片段 %4&lt;br&gt;字节 %5–%6 · %7</translation>
    </message>
    <message>
        <source>byte fallback: this token is a raw byte, not a whole character</source>
        <translation>字节回退：此词元是一个原始字节，而非完整字符</translation>
    </message>
    <message>
        <source>generated</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>forced</source>
        <translation>强制</translation>
    </message>
    <message>
        <source>byte</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>Tokens: %1 (%2 prompt, %3 generated)</source>
        <translation>词元：%1（提示 %2 个，生成 %3 个）</translation>
    </message>
    <message>
        <source>Tokens: %1 of %2 (%3 prompt, %4 generated)</source>
        <translation>词元：%1 / %2（提示 %3，生成 %4）</translation>
    </message>
    <message>
        <source>byte %1 of %2 of the character “%3”: positions %4–%5 spell it together</source>
        <translation>字符“%3”共 %2 个字节，这是第 %1 个：位置 %4–%5 一起拼出它</translation>
    </message>
    <message>
        <source>␣ marks the space this token starts with; the vocabulary writes it “%1”</source>
        <translation>␣ 表示这个词元开头的空格；词表里写作“%1”</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::VectorStrips</name>
    <message>
        <source>|x| = %1</source>
        <translation>|x| = %1</translation>
    </message>
    <message>
        <source>colour scale of the strips below: %1 to %2</source>
        <translation>下面各条的颜色刻度：%1 到 %2</translation>
    </message>
    <message>
        <source>%1 · component %2: %3</source>
        <translation>%1 · 分量 %2：%3</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Runs a language model one step at a time and shows what happens inside.</source>
        <translation>逐步运行语言模型，并展示其内部发生的一切。</translation>
    </message>
    <message>
        <source>A GGUF model to open (default: the sample model).</source>
        <translation>要打开的 GGUF 模型（默认：示例模型）。</translation>
    </message>
</context>
</TS>

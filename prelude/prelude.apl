⍝ Functions that elaboration defines in APL, where APL is the clearest definition. Each is an ordinary dfn, inlined
⍝ at every use like user code. Names here are not visible to user programs.

⍝ ⍺⌽⍵ with one count per row of the matrix ⍵: select from the ravel at rotated column positions.
rotate_rows←{n←⊃⌽⍴⍵ ⋄ cols←n|⍺∘.+¯1+⍳n ⋄ flat←((n×¯1+⍳≢⍵)∘.+0×⍳n)+cols ⋄ (⍴⍵)⍴(,⍵)[1+,flat]}

⍝ ⍺⊤⍵ for a radix vector ⍺ and a vector ⍵: one column of digits per item of ⍵.
encode_vector←{w←⌽×\⌽1↓⍺,1 ⋄ (⍉((≢⍵),≢⍺)⍴⍺)|⍉⌊⍵∘.÷w}

⍝ Greatest common divisor and least common multiple (∨ and ∧ on numbers other than 0 and 1). Euclid's steps run on
⍝ a two-item vector (a loop over an array, which every backend supports). On doubles, as in Dyalog, the residue is
⍝ tolerant, so the steps stop at a divisor that leaves a remainder within ⎕CT of a multiple: 0.2∨0.3 is 0.1; the
⍝ remainders strictly decrease, so the loop ends. lcm_double is lcm on doubles (no rounding to an integer).
gcd←{|⊃{(⍵[2]),⍵[2]|⍵[1]}⍣{0=⍺[2]}⊢⍺,⍵}
lcm←{g←⍺ gcd ⍵ ⋄ g=0:0 ⋄ ⌊0.5+⍺×⍵÷g}
lcm_double←{g←⍺ gcd ⍵ ⋄ g=0:g ⋄ ⍺×⍵÷g}

⍝ ⎕C on characters, by their code points: lower_case (monadic ⎕C, Dyalog's case folding, and ¯1 ⎕C) and upper_case
⍝ (1 ⎕C) map the letters of ASCII, Latin-1 (À-Þ but ×), Greek (Α-Ϋ; ς to Σ) and Cyrillic (Ѐ-Џ and А-Я); every
⍝ other character is unchanged.
lower_case←{c←⎕UCS ⍵ ⋄ up←((c≥65)∧c≤90)∨((c≥192)∧(c≤222)∧c≠215)∨((c≥913)∧(c≤939)∧c≠930)∨(c≥1040)∧c≤1071 ⋄ ⎕UCS c+(32×up)+80×(c≥1024)∧c≤1039}
upper_case←{c←⎕UCS ⍵ ⋄ low←((c≥97)∧c≤122)∨((c≥224)∧(c≤254)∧c≠247)∨((c≥945)∧(c≤971)∧c≠962)∨(c≥1072)∧c≤1103 ⋄ ⎕UCS c-(32×low)+(80×(c≥1104)∧c≤1119)+31×c=962}

⍝ ≠⍵ (unique mask: 1 at the first occurrence of each item), ∪⍵ (unique), ⍺∪⍵ (union) and ⍺∩⍵ (intersection) on
⍝ vectors, in order of first occurrence.
unique_mask←{(⍳≢⍵)=⍵⍳⍵}

⍝ ⍺⍳⍵ for a matrix ⍺: the index of the first row of ⍺ equal to each row of the matrix ⍵ (1+≢⍺ for none; rows of
⍝ another length are a LENGTH ERROR, from ⍪). Each row of m←⍺⍪⍵ gets an id, equal for equal rows: all rows start
⍝ with id 1, and each column in turn refines them, the pair (id, the column's value's index among the column's
⍝ values) numbered anew by ⍳ among the pairs (below (r+1)², exact). Then the ids of ⍺'s rows are searched for those
⍝ of ⍵'s: c sorts (in ⍳) of r rows instead of comparing every row of ⍺ with every row of ⍵. Of a vector ⍵ (one row),
⍝ one index. ≠ and ∪ of a matrix mark and keep its rows at their first occurrence.
rows_index_of←{
  m←⍺⍪⍵ ⋄ r←≢m ⋄ a←≢⍺
  refine←{(j id)←⍵ ⋄ c←m[;j] ⋄ p←id+(r+1)×¯1+c⍳c ⋄ (j+1)(p⍳p)}
  (j id)←refine⍣(⊃⌽⍴m)⊢1(r⍴1)
  (a↑id)⍳a↓id
}
row_index_of←{⊃⍺ rows_index_of(1,≢⍵)⍴⍵}
unique_rows_mask←{(⍳≢⍵)=⍵ rows_index_of ⍵}
unique_rows←{(unique_rows_mask ⍵)⌿⍵}

⍝ 1 1⍉⍵ for a matrix: its diagonal, the items whose row and column are equal, ⌊/⍴⍵ of them; item i is at i-1 rows
⍝ and i-1 columns from the first, 1+⊃⌽⍴⍵ places further along the ravel for each.
diagonal←{(,⍵)[1+(1+⊃⌽⍴⍵)×¯1+⍳⌊/⍴⍵]}
unique←{(unique_mask ⍵)/⍵}
union←{⍺,⍵~⍺}
intersection←{(⍺∊⍵)/⍺}

⍝ ⍺⊥⍵ on arrays: each vector along the last axis of ⍺ (a vector or a matrix of radices) decodes each vector along the
⍝ first axis of ⍵; the weights of the digits are the products of the radices to their right.
decode_vector_radix←{(⌽×\⌽1↓⍺,1)+.×⍵}
decode_matrix_radix←{(⌽×\⌽(0 1↓⍺),1)+.×⍵}
decode_scalar_radix←{((≢⍵)⍴⍺) decode_vector_radix ⍵}
decode_scalar_digits←{+/(⌽×\⌽1↓⍺,1)×⍵}

⍝ ⍺⊤⍵ for a radix vector ⍺ and an array ⍵: the digits of each item, along a new first axis.
encode_array←{((≢⍺),⍴⍵)⍴⍺ encode_vector,⍵}

⍝ ⍺⊤⍵ for a vector of radices ⍺ and doubles ⍵ of any shape, by APL's definition from the right: the last digit is
⍝ b|x for the last radix b (fraction kept: 0 1⊤3.75 is 3 0.75), and what is left for the digits before it is
⍝ (x-digit)÷b, or 0 after a radix of 0 (whose digit is x itself). One row of digits per radix, as encode_array.
encode_doubles←{
  r←⌽⍺ ⋄ n←≢⍺
  step←{(k x digits)←⍵ ⋄ b←r[k] ⋄ d←b|x ⋄ (k+1)((b≠0)×(x-d)÷b+b=0)(digits⍪d)}
  (k x digits)←step⍣n⊢1(,⍵)((0,≢,⍵)⍴0.5)
  (n,⍴⍵)⍴⊖digits
}

⍝ ⍺⍷⍵ (find) for a vector ⍺ and an array ⍵ of rank 1 or more: 1 where the items of ⍺ start along the last axis of
⍝ ⍵. Each item of ⍺ in turn compares with ⍵ rotated by its offset, under a mask of the columns where ⍺ fits.
⍝ Where ⍺ is longer than the axis, the mask is all 0 and no rotation is made (an empty axis has none).
find_along_last_axis←{
  n←≢⍺ ⋄ k←⊃⌽⍴⍵ ⋄ a←⍺ ⋄ w←⍵
  step←{(d r)←⍵ ⋄ (d+1)(r∧a[d+1]=d⌽w)}
  (d r)←step⍣(n×n≤k)⊢0((⍴⍵)⍴(⍳k)≤1+k-n)
  r
}

⍝ ⍺⍷⍵ for matrices: each item of ⍺ in turn compares with ⍵ rotated by its row and column offsets, under a mask of
⍝ the positions where ⍺ fits.
find_in_matrix←{
  r←≢⍺ ⋄ c←⊃⌽⍴⍺ ⋄ m←≢⍵ ⋄ k←⊃⌽⍴⍵ ⋄ a←,⍺ ⋄ w←⍵
  step←{(i z)←⍵ ⋄ (i+1)(z∧a[i+1]=(⌊i÷c)⊖(c|i)⌽w)}
  (i z)←step⍣(r×c×(r≤m)∧c≤k)⊢0(((⍳m)≤1+m-r)∘.∧(⍳k)≤1+k-c)
  z
}

⍝ ⍺⍷⍵ for a scalar ⍵ (and a scalar or vector ⍺), and for an ⍺ that cannot occur in ⍵.
find_in_scalar←{⊃⍺ find_along_last_axis,⍵}
find_nowhere←{(⍴⍵)⍴1=0}

⍝ ⍺?⍵ (deal): ⍺ distinct integers from ⍳⍵ in random order, the first ⍺ steps of a Fisher-Yates shuffle of ⍳⍵ (step
⍝ i swaps item i with an item drawn by ? from item i on). More items than ⍵ has, or a negative ⍺, is a DOMAIN ERROR,
⍝ raised as ÷0.
deal←{
  (⍺<0)∨⍺>⍵:⌊((|⍺)⍴1)÷0
  m←⍵
  step←{(i v)←⍵ ⋄ j←i+?m-i ⋄ v[(i+1),j]←v[j,i+1] ⋄ (i+1)v}
  (i v)←step⍣⍺⊢0(⍳⍵)
  ⍺↑v
}

⍝ ⍺ (g stack_results) n: n results of one shape as the rows of an n×… array; ⍺ is the first (row 0), g i computes row
⍝ i for 0 < i < n. A result of another shape is a LENGTH ERROR (the row it would fill has another length, or is
⍝ given none). The first result is the caller's, so that an empty n still has the shape of the rows.
stack_results←{
  g←⍺⍺ ⋄ first←⍺ ⋄ n←⍵ ⋄ k←≢,first
  step←{(i r)←⍵ ⋄ z←g i ⋄ r[i+1;]←(k×(⍴first)≡⍴z)⍴,z ⋄ (i+1)r}
  (i r)←step⍣(0⌈n-1)⊢1((n,k)⍴,first)
  (n,⍴first)⍴r
}

⍝ f⍤k ⍵ for cells of rank k (⍺), 1 ≤ k < the rank of ⍵: f applies to each cell, in ravel order of the frame (the
⍝ leading axes), and its results, which must all have one shape (LENGTH ERROR otherwise), make the trailing axes of
⍝ the result. The first cell's result gives that shape; where the frame is empty, the result of f on a cell of fill
⍝ elements does, as in Dyalog.
rank_cells←{
  f←⍺⍺
  s←(-⍺)↑⍴⍵ ⋄ frame←(-⍺)↓⍴⍵ ⋄ n←×/frame ⋄ c←×/s
  x←(n,c)⍴⍵
  first←f s⍴c↑,⍵
  (frame,⍴first)⍴first({f s⍴x[⍵+1;]}stack_results)n
}

⍝ ⍺ f⍤(a b) ⍵ for cells of rank a of ⍺ and b of ⍵ (⍵⍵ is a b), both below their argument's rank: f on each pair of
⍝ cells at the same position of the two frames, which must be equal (a LENGTH ERROR otherwise: the vectors compared
⍝ to find n differ in length), its results of one shape making the trailing axes, as in rank_cells.
rank_cell_pairs←{
  f←⍺⍺ ⋄ a←⊃⍵⍵ ⋄ b←⊃⌽⍵⍵
  sa←(-a)↑⍴⍺ ⋄ sb←(-b)↑⍴⍵ ⋄ fa←(-a)↓⍴⍺ ⋄ fb←(-b)↓⍴⍵ ⋄ ca←×/sa ⋄ cb←×/sb
  n←≢(⍳(×/fa)×fa≡fb)=⍳×/fb
  x←(n,ca)⍴⍺ ⋄ y←(n,cb)⍴⍵
  first←(sa⍴ca↑,⍺)f sb⍴cb↑,⍵
  (fa,⍴first)⍴first({(sa⍴x[⍵+1;])f sb⍴y[⍵+1;]}stack_results)n
}

⍝ f⌸⍵ (key) for a vector ⍵: f with the key as ⍺ and the indices of its items as ⍵, once per distinct item of ⍵, in
⍝ order of first occurrence; ⍺ f⌸⍵ with the major cells of ⍵ that have the key instead of the indices. The results,
⍝ which must all have one shape (LENGTH ERROR otherwise), are the rows of the result; with no keys, the result of f
⍝ on a fill key and no items gives their shape. The keys are sorted once (⍋ is stable): each run of equal keys is
⍝ a group, its positions in ascending order, and the groups are taken in the order of their first positions, so time
⍝ is that of the sort. s and l are each group's start in the sorted keys and its length, with a last, empty group for
⍝ the first result when there are no keys.
key_cells←{
  f←⍺⍺ ⋄ x←⍺ ⋄ y←⍵ ⋄ g←⍋x ⋄ sx←x[g]
  starts←((sx≠¯1⌽sx)∨1=⍳≢sx)/⍳≢sx
  lengths←(1↓starts,1+≢sx)-starts
  order←⍋g[starts] ⋄ n←≢order
  s←starts[order],1 ⋄ l←lengths[order],0
  cell←{p←g[s[⍵+1]+¯1+⍳l[⍵+1]] ⋄ (⊃x[p])f(⊂p)⌷y}
  (cell 0)(cell stack_results)n
}
key_indices←{f←⍺⍺ ⋄ ⍵ (f key_cells) ⍳≢⍵}

⍝ f⌺s ⍵ (stencil) for odd window sizes s, one for each of the leading axes of ⍵ that make the frame (the elaborator
⍝ checks both): f on the window of shape s,(≢s)↓⍴⍵ centred on each position of the frame, in ravel order, with fill
⍝ items (0 or blank) where the window reaches beyond ⍵, and as ⍺ the number of fill rows on each axis of the frame
⍝ (positive before ⍵, negative after it). The results, which must all have one shape (LENGTH ERROR otherwise), make
⍝ the trailing axes of the result. Windows are gathered from the ravel of ⍵ padded by ⌊s÷2⌋ on both sides of each
⍝ frame axis, where the items of every window lie at the same offsets from its first one. Called with ⍺ 1 (the
⍝ elaborator's first try), f must give scalars, and the windows are an each over the positions: a parallel
⍝ map whose window reads fuse into f's code, where the loop of stack_results runs the windows one after another.
stencil_cells←{
  f←⍺⍺ ⋄ s←⍵⍵ ⋄ k←≢s ⋄ h←⌊s÷2
  frame←k↑⍴⍵ ⋄ n←×/frame ⋄ ws←s,k↓⍴⍵
  p←(-frame+2×h)↑(frame+h)↑⍵
  offsets←(⍴p)⊥ws⊤¯1+⍳×/ws
  flat←(1+⌈/(×/⍴p),offsets)↑,p
  positions←frame⊤¯1+⍳n
  starts←((⍴p)⊥((≢⍴p),n)↑positions),0
  hs←⍉(n,k)⍴h ⋄ last←⍉(n,k)⍴frame-1
  fills←((0⌈hs-positions)-0⌈positions+hs-last),0
  cell←{fills[;⍵+1]f ws⍴flat[1+starts[⍵+1]+offsets]}
  ⍺:frame⍴cell¨¯1+⍳n
  first←cell 0
  (frame,⍴first)⍴first(cell stack_results)n
}

⍝ ⍺ f/ ⍵ (n-wise reduction) along the last axis: f/ of each window of |⍺| consecutive items, with the items of each
⍝ window reversed for a negative ⍺; 1+(≢ axis)-|⍺| results along the axis, a LENGTH ERROR (the sum of vectors of
⍝ different lengths) when that is negative. Item j of every window is one shifted array (s j), so the fold runs over
⍝ whole arrays: the last items first, then (s j) f¨ acc for the other items from the right (from the left for a
⍝ negative ⍺). f¨, not f: f applies to the items of the windows, which only a scalar function may be given whole
⍝ arrays for ({⍺+⍵×≢⍵} would see the length of the array). An ⍺ of 0 gives 1+≢ axis identity items of f.
nwise_reduce←{
  f←⍺⍺ ⋄ n←|⍺ ⋄ k←⊃⌽⍴⍵ ⋄ lead←¯1↓⍴⍵ ⋄ w←⍵
  m←1+k-n
  too_long←((2×0⌈-m)⍴0)+0⍴0
  n=0:(lead,k+1)⍴f/(lead,0)⍴w
  s←{(lead,m)↑((0×lead),⍵-1)↓w}
  js←|(⍳n)-(n+1)×⍺≥0
  step←{(i acc)←⍵ ⋄ (i+1)((s js[i+1])f¨acc)}
  (i acc)←step⍣(n-1)⊢1(s js[1])
  acc
}

⍝ w d⍕⍵ (format with a field width and a number of decimals) for numbers: each item written with d decimals (its
⍝ magnitude rounded half up), right-aligned in a field of w characters with a high minus before a negative one; a
⍝ field too narrow for its item is all asterisks. The fields of the items, in ravel order, make the rows of the
⍝ result (the elaborator reshapes a matrix's). The digits of every item come from one encode of its magnitude scaled
⍝ by 10*d: the k places left of the point, then d after it; leading zeros are blanks, except the units digit, and
⍝ the last blank before a negative item's first digit is its minus sign. A width below d+1 leaves no place for the
⍝ units digit (k=0): the fields are stars, and w↑ cuts the point and decimals to the width.
format_fields←{
  w←⍺[1] ⋄ d←⍺[2] ⋄ x←,⍵ ⋄ n←≢x
  p←d>0 ⋄ k←0⌈w-d+p
  s←⌊0.5+(|x)×10*d
  digits←((k+d)⍴10)⊤s
  lead←(∧⍀0=k↑digits)∧⍉(n,k)⍴(⍳k)<k
  b←+⌿lead
  negative←(x<0)∧s>0
  sign←((⍳k)∘.=b)∧(k,n)⍴negative
  whole←' ¯0123456789'[1+sign+(~lead)×2+k↑digits]
  fraction←⎕D[1+(-d)↑digits]
  fields←w↑whole⍪((p,n)⍴'.')⍪fraction
  too_narrow←(k=0)∨(s≥10*k+d)∨negative∧b=0
  (n,w)⍴⍉(fields,(w,n)⍴'*')[;(⍳n)+n×too_narrow]
}

⍝ d⍕⍵ (format with d decimals and no width, or a width of 0) for a matrix ⍵: as Dyalog lays them out, each column
⍝ is as wide as its widest item needs plus one blank on the left. An item needs its integer digits (at least one), a
⍝ point and d decimals when d>0, and a high minus when it is negative and does not round to 0. Every item is first
⍝ formatted by format_fields in the widest column's width m; then each column keeps its last w[j] characters: the
⍝ mask w∘.≥⌽⍳m, one row per column, tiles the items in ravel order.
format_decimals←{
  d←⍺ ⋄ x←,⍵
  s←⌊0.5+(|x)×10*d
  k←1++⌿(10*⍳18)∘.≤⌊s÷10*d
  need←k+(d>0)+d+(x<0)∧s>0
  w←1+0⌈⌈⌿(⍴⍵)⍴need
  m←1⌈⌈/w
  fields←(m,d)format_fields x
  keep←((≢x),m)⍴w∘.≥⌽⍳m
  ((1↑⍴⍵),+/w)⍴(,keep)/,fields
}

⍝ ⍺⍸⍵ (interval index) for an ascending vector ⍺: for each item of ⍵, how many items of ⍺ are less than or equal to it.
⍝ One stable sort of ⍺,,⍵ puts each item of ⍵ after the items of ⍺ that are ≤ it (⍺'s come first among equals), so the
⍝ count is the number of ⍺'s items up to its place in the sorted order: time (n+m)×log, not n×m.
interval_index←{
  n←≢⍺ ⋄ g←⍋⍺,,⍵ ⋄ mine←g≤n
  counts←(≢,⍵)⍴0
  counts[(~mine)/g-n]←(~mine)/+\mine
  (⍴⍵)⍴counts
}

⍝ ⍺⌹⍵ for a square matrix ⍵ and a matrix ⍺ of as many rows: the x with ⍵+.×x = ⍺, by Gauss-Jordan elimination of
⍝ ⍵,⍺ with partial pivoting (at step k the row with the largest magnitude in column k, from row k down, comes up).
⍝ A pivot below 1E¯13 of ⍵'s largest magnitude means ⍵ is singular, or too near it for doubles: its reciprocal is
⍝ taken as ÷0, APL's DOMAIN ERROR, as Dyalog reports a singular matrix.
divide_square←{
  n←≢⍵
  tiny←1E¯13×⌈/|,⍵
  step←{
    (k m)←⍵
    c←|(k-1)↓m[;k]
    p←(k-1)+c⍳⌈/c
    m[k,p;]←m[p,k;]
    pivot←m[k;k]
    r←m[k;]×÷pivot×tiny<|pivot
    (k+1)(m-(m[;k]-k=⍳n)∘.×r)
  }
  (k m)←step⍣n⊢1(⍵,⍺)
  (0,n)↓m
}

⍝ ⍺⌹⍵ for a matrix ⍵ with at least as many rows as columns: the exact solution when ⍵ is square, otherwise the least
⍝ squares one, from the normal equations ((⍉⍵)+.×⍵) x = (⍉⍵)+.×⍺.
matrix_divide←{(≢⍵)=⊃⌽⍴⍵:⍺ divide_square ⍵ ⋄ ((⍉⍵)+.×⍺)divide_square(⍉⍵)+.×⍵}
matrix_divide_vector←{,(((≢⍺),1)⍴⍺)matrix_divide ⍵}
matrix_inverse←{((⍳≢⍵)∘.=⍳≢⍵)matrix_divide ⍵}
vector_inverse←{⍵÷+/⍵×⍵}

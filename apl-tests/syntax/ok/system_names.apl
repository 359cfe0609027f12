⎕IO
⎕ReadFile 'data.txt'

∇ R←Safe X
  :Trap 0
    R←÷X
  :EndTrap
∇

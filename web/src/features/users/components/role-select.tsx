import { MenuItem, TextField, type TextFieldProps } from '@mui/material';
import type { Ref } from 'react';
import { ASSIGNABLE_ROLES } from '../utils/permissions';

type RoleSelectProps = Omit<TextFieldProps, 'select' | 'label' | 'children'> & { ref?: Ref<HTMLDivElement> };

/** The "Role" choice (Admin / User) of the invite and edit dialogs. */
export function RoleSelect(props: RoleSelectProps) {
  return (
    <TextField select label="Role" fullWidth {...props}>
      {ASSIGNABLE_ROLES.map((role) => (
        <MenuItem key={role} value={role}>
          {role}
        </MenuItem>
      ))}
    </TextField>
  );
}
